// dataset-panel.js — "Check a whole dataset": the command that runs this page's check over a
// JSONL file with the choices on screen, and the conversation on screen as a line of such a file,
// each with a copy button (dataset-command.js builds both).
//
//   const panel = createDatasetPanel(container);
//   panel.update({ state, messages, promptLength, kwargs, ownTemplate });

import { h, replaceChildren } from '../shared/dom.js';
import { createCopyControl } from '../shared/copy-text.js';
import { datasetCommand, datasetLine } from './dataset-command.js';

export const DATASET_TEXT = {
  copyCommand: 'Copy the command',
  commandArea: 'The command',
  lineTitle: 'This conversation as a line of your dataset',
  copyLine: 'Copy the line',
  lineArea: 'The dataset line',
  lineHint: 'Paste it into your file to keep this case, or into the paste box above on another visit.',
};

export function createDatasetPanel(container) {
  let command = '';
  let line = '';
  const notes = h('ul', { class: 'hint dataset-notes' });
  const commandCopy = createCopyControl({ label: DATASET_TEXT.copyCommand, getText: () => command, textareaLabel: DATASET_TEXT.commandArea, showText: true });
  const lineCopy = createCopyControl({ label: DATASET_TEXT.copyLine, getText: () => line, textareaLabel: DATASET_TEXT.lineArea, showText: true });
  // A command stays one line (scrolled, not wrapped at its hyphens); the dataset line wraps.
  commandCopy.element.classList.add('command-copy');
  commandCopy.element.querySelector('textarea').rows = 2;
  replaceChildren(container, commandCopy.element, notes, h('h3', {}, DATASET_TEXT.lineTitle), h('p', { class: 'hint' }, DATASET_TEXT.lineHint), lineCopy.element);

  return {
    update({ state, messages, promptLength = null, kwargs = null, ownTemplate = false }) {
      const built = datasetCommand(state, { ownTemplate, promptCompletion: promptLength !== null });
      command = built.command;
      line = datasetLine(messages, { promptLength, kwargs });
      commandCopy.refresh();
      lineCopy.refresh();
      replaceChildren(notes, built.notes.map((n) => h('li', {}, n)));
    },
  };
}
