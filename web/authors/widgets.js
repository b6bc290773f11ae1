// widgets.js — what a course author can embed: each page, its URL parameters and the panels
// `hide=` can switch off (the data-panel names on that page). One table, used by the embed
// builder and the parameter reference on authors.html. Not here: building or copying codes.

export const WIDGETS = [
  {
    id: 'exercise',
    page: 'exercise.html',
    label: 'Find-the-bug exercise',
    height: 900,
    panels: [
      ['passage', 'the passage, buttons and result'],
      ['explanation', 'TL;DR, analogy, key concepts, fix, detailed answer'],
      ['break', '“See it break”: the grid comparison and checked claims'],
      ['train', '“Train it”: the link to the Train page with this exercise’s bug (only where it has one)'],
      ['followups', 'follow-up questions'],
      ['cheatsheet', 'cheat sheet, memory aid, “don’t say this”'],
      ['references', 'references'],
    ],
  },
  {
    id: 'grid',
    page: 'grid.html',
    label: 'Token grid',
    height: 1100,
    panels: [
      ['intro', 'the introduction'],
      ['controls', 'the examples and collator options'],
      ['grid', 'the token grid'],
      ['summary', 'what the trainer would report'],
      ['attention', 'the attention of one row'],
    ],
  },
  {
    id: 'dilution',
    page: 'dilution.html',
    label: 'Loss dilution',
    height: 1100,
    panels: [
      ['intro', 'the introduction'],
      ['controls', 'the controls'],
      ['plot', 'the plot'],
      ['derivation', 'the worked formula'],
      ['batch', 'the batch'],
    ],
  },
  {
    id: 'lab',
    page: 'lab.html',
    label: 'Normalization lab',
    height: 1100,
    panels: [
      ['intro', 'the introduction'],
      ['function', 'the function panel'],
      ['means', 'token mean vs mean of means'],
      ['accumulation', 'gradient accumulation'],
    ],
  },
  {
    id: 'practice',
    page: 'practice.html',
    label: 'Interview practice',
    height: 1000,
    panels: [
      ['intro', 'the introduction'],
      ['setup', 'the set-up fields (count, levels, topics, timer, seed); Start stays, so a link with n=, seed= … gives a fixed set'],
      ['history', 'the list of past sessions'],
      ['progress', 'the “Exercise 2 of 5” line and progress bar'],
      ['timer', 'the visible countdown (time is still kept and announced)'],
    ],
  },
  {
    id: 'train',
    page: 'train.html',
    label: 'Train it (buggy collator vs fixed)',
    height: 1500,
    panels: [
      ['intro', 'the introduction'],
      ['controls', 'the bug, settings, Train / Pause / Reset and progress (add autorun=1 to start training on load)'],
      ['curves', 'the three live curves'],
      ['look', 'what to look for, and the final figures'],
      ['samples', 'what the two models write'],
      ['batch', 'the first batch of each collator and the weight of each target'],
      ['about', 'the task, the model and the loop'],
    ],
  },
  {
    id: 'chat',
    page: 'chat.html',
    label: 'Chat masks (a real chat template and tokenizer)',
    height: 1400,
    panels: [
      ['intro', 'the introduction'],
      ['setup', 'the model family and the conversation'],
      ['policies', 'what is trained: target, end-of-turn, headers, pad masking, truncation'],
      ['tokens', 'the tokens with their labels, and the warnings'],
      ['break', '“See it break”: the chosen mistake next to the right masks'],
      ['batch', '“Batch it”: the conversation collated into a padded batch'],
      ['command', '“Check a whole dataset”: the command line and the dataset line'],
    ],
  },
  {
    id: 'doctor',
    page: 'doctor.html',
    label: 'Batch doctor (diagnose a printed batch)',
    height: 1400,
    panels: [
      ['intro', 'the introduction'],
      ['input', 'the pasted batch, the token ids and Diagnose'],
      ['examples', 'the example batches (add example=<id> to open one)'],
      ['findings', 'the diagnosis'],
      ['grid', 'the cells of the batch, with the flagged ones'],
      ['figures', 'the figures (targets, pad share, …)'],
      ['checks', 'every check the doctor ran'],
    ],
  },
];

export function widgetById(id) {
  return WIDGETS.find((w) => w.id === id) ?? WIDGETS[0];
}
