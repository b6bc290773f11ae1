// train-link.js — "Train it": when an exercise's bug is one the Train page can run (its `train`
// field in the YAML), a link to train.html pre-set to that bug, shown after Check with the rest
// of the explanation. Exercises without the field show nothing.
//
//   renderTrainLink(section, exercise);

import { h, replaceChildren } from '../shared/dom.js';

// Every user-visible string of the link, in one place.
export const TRAIN_LINK_TEXT = {
  title: 'Train it',
  body: 'What does this bug do to a real training run? Train a tiny transformer twice in your browser, through the buggy collator and through the fixed one, and watch the reported loss, the eval loss and the samples part ways.',
  link: 'Train it with this bug',
};

export function renderTrainLink(section, exercise) {
  if (!section || !exercise.train?.bug) return;
  const href = `./train.html?${new URLSearchParams({ bug: exercise.train.bug })}`;
  replaceChildren(
    section,
    h('h2', { id: 'train-title' }, TRAIN_LINK_TEXT.title),
    h('p', {}, TRAIN_LINK_TEXT.body),
    h('p', {}, h('a', { class: 'button secondary', href, id: 'train-link' }, TRAIN_LINK_TEXT.link)),
  );
  section.hidden = false;
}
