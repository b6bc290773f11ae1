// site-pages.js — every page of the site, in one list: the header navigation (shared/page.js)
// and the home page's tool cards (home/tool-cards.js) are both drawn from it.
//
// To add a page: append one entry. `nav` is its name in the header (leave it out to keep the
// page out of the header); `group` puts a card on the home page under that group's heading
// (HOME_GROUPS, in that order) with `title` and `blurb`. `id` is what the page passes to
// initPage({ widget }), so the header marks it as the current page.
//
//   { id: 'chat', href: './chat.html', nav: 'Chat masks', group: 'labs',
//     title: 'Chat masks', blurb: 'A real chat rendered by its model’s template …' },

export const HOME_GROUPS = [
  { id: 'labs', title: 'Labs', intro: 'Change one setting and watch every tensor and number follow.' },
  { id: 'ways', title: 'Other ways in', intro: 'Practise for an interview, or bring an exercise into your own course.' },
];

export const SITE_PAGES = [
  { id: 'home', href: './index.html', nav: 'Home' },
  { id: 'exercise', href: './exercise.html', nav: 'Find the bug' },
  {
    id: 'grid',
    href: './grid.html',
    nav: 'Token grid',
    group: 'labs',
    title: 'Token grid',
    blurb: 'Type a few examples, choose padding side, masks and label policy, and see every tensor the model receives, cell by cell, with the loss at each position.',
  },
  {
    id: 'dilution',
    href: './dilution.html',
    nav: 'Loss dilution',
    group: 'labs',
    title: 'Loss dilution',
    blurb: 'Add pads as targets and watch the reported loss sink while the loss on real tokens stays put, with the formula worked out on the batch.',
  },
  {
    id: 'lab',
    href: './lab.html',
    nav: 'Normalization lab',
    group: 'labs',
    title: 'Normalization lab',
    blurb: 'Token mean, mean of per-example means, sum over items under gradient accumulation: compare what each one really averages.',
  },
  {
    id: 'chat',
    href: './chat.html',
    nav: 'Chat masks',
    group: 'labs',
    title: 'Chat masks',
    blurb: 'A conversation rendered by a real model’s chat template and tokenizer (Llama 3.1, Qwen3, Gemma 3, Mistral Nemo, gpt-oss): which tokens are trained, whether the end-of-turn token is, and what breaks.',
  },
  {
    id: 'train',
    href: './train.html',
    nav: 'Train it',
    group: 'labs',
    title: 'Train it',
    blurb: 'Train a tiny transformer twice in your browser, through a buggy collator and through the fixed one, and watch the reported loss, the eval loss and the samples part ways.',
  },
  {
    id: 'doctor',
    href: './doctor.html',
    nav: 'Batch doctor',
    group: 'labs',
    title: 'Batch doctor',
    blurb: 'Paste a batch as your trainer printed it and get a diagnosis: pads trained, EOS masked, labels shifted twice, packed rows that leak — with the cells, the fix and the figures.',
  },
  {
    id: 'practice',
    href: './practice.html',
    nav: 'Interview practice',
    group: 'ways',
    title: 'Interview practice',
    blurb: 'A random set of exercises, an optional timer, then the follow-up questions interviewers ask — answer, reveal the model answer, grade yourself.',
  },
  {
    id: 'authors',
    href: './authors.html',
    nav: 'For course authors',
    group: 'ways',
    title: 'For course authors',
    blurb: 'Embed any exercise or lab in a course, an LMS or a blog with one snippet that sizes itself, hide panels, and receive the learner’s score.',
  },
];
