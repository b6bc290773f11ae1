// explanation.js — what opens after Check: TL;DR, analogy, key concepts, the fix, the detailed
// answer, follow-up questions, "don't say this", the cheat sheet, memory aid and references.
//
//   renderExplanation(panels, exercise, { revealed, onReveal })
//   // panels: { explanation, followups, cheatsheet, references } — the page's data-panel sections
//
// The *_html fields were rendered at build time from our own content files (markdown-it with raw
// HTML off, KaTeX as MathML): that is the only HTML this page inserts. Anything from the URL or
// the learner goes in as text. Learners' draft answers stay in sessionStorage for the visit.
// Not here: the passage, scoring, the core (live numbers are filled by live-numbers.js).

import { h, replaceChildren } from '../shared/dom.js';
import { readDraft, saveDraft } from '../shared/drafts.js';

// Every user-visible string of the explanation, in one place.
export const EXPLANATION_TEXT = {
  explanation: 'Explanation',
  tldr: 'TL;DR',
  analogy: 'In plain words',
  concepts: 'Key concepts',
  fix: 'The fix',
  detailed: 'The detailed answer',
  followups: 'Follow-up questions',
  followupsIntro: 'What an interviewer might ask next. Write your answer first, then compare it with the model answer.',
  yourAnswer: (n) => `Your answer to question ${n}`,
  reveal: 'Reveal model answer',
  hide: 'Hide model answer',
  modelAnswer: 'Model answer',
  redFlags: 'Don’t say this',
  redFlagsIntro: 'Statements that sound right and are not — each with the reason.',
  cheatSheet: '60-second cheat sheet',
  memoryAid: 'Memory aid',
  references: 'References',
  referencesIntro: 'Primary sources: documentation pages and the issues where people hit this bug.',
  opensNewTab: '(opens in a new tab)',
  wideFormula: 'Formula (scrolls sideways)',
};

/** A node holding HTML compiled at build time from our own content files (trusted). */
export function trustedContent(tag, attrs, html) {
  const node = h(tag, attrs);
  node.innerHTML = html;
  return node;
}

function draftKey(id, i) {
  return `masklab.draft.${id}.${i}`;
}

function explanationPanel(exercise) {
  return [
    h('h2', { id: 'explanation-title' }, EXPLANATION_TEXT.explanation),
    h('h3', {}, EXPLANATION_TEXT.tldr),
    trustedContent('p', { class: 'tldr' }, exercise.tldr_html),
    h('h3', {}, EXPLANATION_TEXT.analogy),
    trustedContent('p', { class: 'analogy' }, exercise.analogy_html),
    h('h3', {}, EXPLANATION_TEXT.concepts),
    h(
      'dl',
      { class: 'concepts' },
      exercise.key_concepts.map((k) => h('div', {}, h('dt', {}, k.term), trustedContent('dd', {}, k.definition_html))),
    ),
    h('h3', {}, EXPLANATION_TEXT.fix),
    trustedContent('div', { class: 'fix prose-html' }, exercise.fix_html),
    // Content headings start at ### (the compiler enforces it), so they nest under this h2.
    h('h2', {}, EXPLANATION_TEXT.detailed),
    trustedContent('div', { class: 'detailed prose-html' }, exercise.detailed_html),
  ];
}

function followUpsPanel(exercise, revealed, onReveal) {
  const items = exercise.follow_ups.map((item, i) => {
    const questionId = `followup-${i}-question`;
    const answerId = `followup-${i}-answer`;
    const textareaId = `followup-${i}-draft`;
    const answer = h(
      'div',
      { id: answerId, class: 'model-answer', hidden: !revealed.has(i), role: 'region', 'aria-label': `${EXPLANATION_TEXT.modelAnswer} ${i + 1}` },
      h('p', { class: 'model-answer-title' }, EXPLANATION_TEXT.modelAnswer),
      trustedContent('div', { class: 'prose-html' }, item.answer_html),
    );
    const textarea = h('textarea', { id: textareaId, rows: '4', 'aria-describedby': questionId });
    textarea.value = readDraft(draftKey(exercise.id, i));
    textarea.addEventListener('input', () => saveDraft(draftKey(exercise.id, i), textarea.value));
    const button = h(
      'button',
      { type: 'button', class: 'secondary', 'aria-expanded': String(revealed.has(i)), 'aria-controls': answerId },
      revealed.has(i) ? EXPLANATION_TEXT.hide : EXPLANATION_TEXT.reveal,
    );
    button.addEventListener('click', () => {
      const open = answer.hidden;
      answer.hidden = !open;
      button.setAttribute('aria-expanded', String(open));
      button.textContent = open ? EXPLANATION_TEXT.hide : EXPLANATION_TEXT.reveal;
      onReveal(i, open);
    });
    return h(
      'li',
      { class: 'card follow-up' },
      trustedContent('p', { id: questionId, class: 'question' }, item.question_html),
      h('label', { for: textareaId }, EXPLANATION_TEXT.yourAnswer(i + 1)),
      textarea,
      h('div', { class: 'actions' }, button),
      answer,
    );
  });
  return [h('h2', { id: 'followups-title' }, EXPLANATION_TEXT.followups), h('p', {}, EXPLANATION_TEXT.followupsIntro), h('ol', { class: 'follow-ups' }, items)];
}

function cheatSheetPanel(exercise) {
  return [
    h('h2', { id: 'cheatsheet-title' }, EXPLANATION_TEXT.cheatSheet),
    h('ul', { class: 'cheat-sheet' }, exercise.cheat_sheet_html.map((html) => trustedContent('li', {}, html))),
    h('h3', {}, EXPLANATION_TEXT.memoryAid),
    trustedContent('p', { class: 'memory-aid' }, exercise.memory_aid_html),
    h('h3', {}, EXPLANATION_TEXT.redFlags),
    h('p', {}, EXPLANATION_TEXT.redFlagsIntro),
    h('ul', { class: 'red-flags' }, exercise.red_flags_html.map((html) => trustedContent('li', {}, html))),
  ];
}

function referencesPanel(exercise) {
  return [
    h('h2', { id: 'references-title' }, EXPLANATION_TEXT.references),
    h('p', {}, EXPLANATION_TEXT.referencesIntro),
    h(
      'ul',
      { class: 'references' },
      exercise.references.map((r) =>
        h('li', {}, h('a', { href: r.url, target: '_blank', rel: 'noopener noreferrer' }, r.title, h('span', { class: 'visually-hidden' }, ` ${EXPLANATION_TEXT.opensNewTab}`))),
      ),
    ),
  ];
}

/**
 * Display formulas wider than their box scroll sideways; those that do become focusable regions,
 * so a keyboard can scroll them too. A box is checked again when its own width changes (a
 * ResizeObserver: the window is resized) and when fonts finish loading (KaTeX's fonts widen a
 * formula without resizing any box around it); main.js calls this again once KaTeX's stylesheet
 * has arrived. No layout is forced while the page is still drawing.
 */
const formulaWatch = typeof ResizeObserver === 'function'
  ? new ResizeObserver((entries) => {
      for (const entry of entries) markWideFormula(entry.target);
    })
  : null;
globalThis.document?.fonts?.addEventListener?.('loadingdone', () => {
  for (const box of document.querySelectorAll('.math-display[data-watched]')) markWideFormula(box);
});

function markWideFormula(box) {
  const wide = box.scrollWidth > box.clientWidth + 1;
  if (wide === box.hasAttribute('tabindex')) return;
  if (wide) {
    box.tabIndex = 0;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', EXPLANATION_TEXT.wideFormula);
  } else {
    box.removeAttribute('tabindex');
    box.removeAttribute('role');
    box.removeAttribute('aria-label');
  }
}

export function focusableWideFormulas(root) {
  for (const box of root.querySelectorAll('.math-display')) {
    if (formulaWatch && !box.dataset.watched) {
      box.dataset.watched = '1';
      formulaWatch.observe(box); // reports once at once, then on every change of the box's size
    } else markWideFormula(box);
  }
}

export function renderExplanation(panels, exercise, { revealed = new Set(), onReveal = () => {} } = {}) {
  replaceChildren(panels.explanation, explanationPanel(exercise));
  replaceChildren(panels.followups, followUpsPanel(exercise, revealed, onReveal));
  replaceChildren(panels.cheatsheet, cheatSheetPanel(exercise));
  replaceChildren(panels.references, referencesPanel(exercise));
}
