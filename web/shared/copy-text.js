// copy-text.js — a "Copy" button that always leaves the learner with the text.
//
//   const copy = createCopyControl({ label: 'Copy embed code', getText: () => code });
//   container.append(copy.element);
//
// Tries navigator.clipboard first. Where that is refused (an iframe without clipboard permission,
// plain http, an old browser) it shows the text in a read-only textarea, selected, so Ctrl+C /
// long-press copies it. Either way the outcome is written in a status line (a live region).
// Not here: what is copied.

import { h } from './dom.js';

export const COPY_TEXT = {
  copied: 'Copied to the clipboard.',
  fallback: 'Your browser did not allow copying here. The text is selected below: press Ctrl+C (⌘C on a Mac) to copy it.',
  textareaLabel: 'Text to copy',
};

export function createCopyControl({ label, getText, textareaLabel = COPY_TEXT.textareaLabel, showText = false }) {
  const status = h('p', { class: 'copy-status', role: 'status' });
  const areaId = `copy-area-${Math.random().toString(36).slice(2, 9)}`;
  const area = h('textarea', { id: areaId, class: 'copy-area', readonly: true, rows: '3', spellcheck: 'false' });
  const areaLabel = h('label', { for: areaId }, textareaLabel);
  const areaBox = h('div', { class: 'copy-box', hidden: !showText }, areaLabel, area);

  function showFallback(text) {
    area.value = text;
    areaBox.hidden = false;
    area.focus();
    area.select();
    status.textContent = COPY_TEXT.fallback;
  }

  async function copy() {
    const text = getText();
    area.value = text;
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      status.textContent = COPY_TEXT.copied;
    } catch {
      showFallback(text);
    }
  }

  const button = h('button', { type: 'button', class: 'secondary copy-button', onclick: copy }, label);
  const element = h('div', { class: 'copy-control' }, button, status, areaBox);
  return {
    element,
    button,
    // Keeps the visible text current (for controls that show their text all the time).
    refresh() {
      area.value = getText();
    },
  };
}
