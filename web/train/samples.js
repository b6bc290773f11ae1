// samples.js — what the two trained models write: greedy completions of the same prompts side
// by side with the correct answer, and a table of next-token probabilities at the boundary (where
// <eos> belongs, and right after it).
//
//   renderSamples(container, { vocab, buggy, fixed, limit });   // the workers' `samples` payloads
//
// Each payload holds typed arrays from the core: prompts, answers and completions (token ids,
// rows joined, with their lengths), and probsAtEnd / probsAfterEos (V probabilities per sample,
// NaN where a prompt has no correct answer). This file only lays them out: a match is a
// comparison of token ids, and "most likely" is the largest of the core's probabilities.

import { h, replaceChildren } from '../shared/dom.js';
import { formatNumber } from '../shared/format.js';

// Every user-visible string of the samples, in one place.
export const SAMPLES_TEXT = {
  samplesTitle: 'Greedy samples',
  samplesIntro: (limit) =>
    `Both models complete the same prompts, always taking the most likely next token, until they write <eos> or reach the limit of ${limit} tokens. The prompts are held out: no training row had these pairs.`,
  caption: 'Greedy completions of the same prompts',
  prompt: 'prompt',
  answer: 'correct answer',
  arrow: '→',
  writes: { buggy: 'buggy model writes', fixed: 'fixed model writes' },
  matches: { glyph: '✓', text: 'matches' },
  differs: { glyph: '✗', text: 'differs' },
  noAnswer: '(no single answer)',
  ranOn: 'no <eos>: ran on to the limit',
  probsTitle: 'Probabilities at the boundary',
  probsIntro: 'Teacher-forced on the correct answer: what each model predicts right after the last sound, where <eos> belongs, and right after <eos>.',
  probsCaption: 'Next-token probabilities at the end of each answer',
  probsColumns: ['prompt', 'P(<eos>), buggy', 'P(<eos>), fixed', 'most likely there, buggy', 'most likely there, fixed', 'after <eos>, buggy', 'after <eos>, fixed'],
};

const EOS = '<eos>';
const PAD = '<pad>';

function rows(ids, lengths) {
  const out = [];
  let offset = 0;
  for (const n of lengths) {
    out.push(Array.from(ids.subarray(offset, offset + n)));
    offset += n;
  }
  return out;
}

function tokens(vocab, ids, { dim = 0 } = {}) {
  return h(
    'span',
    { class: 'tokens' },
    ids.map((id, i) => {
      const word = vocab[id] ?? String(id);
      const kind = word === EOS ? ' eos' : word === PAD ? ' pad' : '';
      return h('span', { class: `tok${kind}${i < dim ? ' prompt' : ''}` }, word);
    }),
  );
}

function same(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function verdict(vocab, completion, answer, limit) {
  if (!answer.length) return null;
  const ok = same(completion, answer);
  const mark = ok ? SAMPLES_TEXT.matches : SAMPLES_TEXT.differs;
  const ranOn = !completion.some((id) => vocab[id] === EOS) && completion.length >= limit;
  return h('span', { class: `verdict ${ok ? 'good' : 'bad'}` }, h('span', { 'aria-hidden': 'true' }, mark.glyph), ` ${mark.text}`, ranOn ? `; ${SAMPLES_TEXT.ranOn}` : '');
}

function top(vocab, probs, sample, V) {
  const row = probs.subarray(sample * V, (sample + 1) * V);
  if (Number.isNaN(row[0])) return null;
  let best = 0;
  for (let v = 1; v < V; v += 1) if (row[v] > row[best]) best = v;
  return { word: vocab[best], p: row[best], row };
}

export function renderSamples(container, { vocab, buggy, fixed, limit }) {
  const V = vocab.length;
  const eos = vocab.indexOf(EOS);
  const prompts = rows(buggy.prompts, buggy.promptLengths);
  const answers = rows(buggy.answers, buggy.answerLengths);
  const completions = { buggy: rows(buggy.completions, buggy.completionLengths), fixed: rows(fixed.completions, fixed.completionLengths) };

  const sampleCards = prompts.map((prompt, i) =>
    h(
      'li',
      { class: 'sample', dataset: { sample: String(i) } },
      h(
        'p',
        { class: 'sample-prompt' },
        h('span', { class: 'visually-hidden' }, `${SAMPLES_TEXT.prompt}: `),
        tokens(vocab, prompt),
        answers[i].length ? [h('span', { class: 'arrow' }, ` ${SAMPLES_TEXT.arrow} `), h('span', { class: 'visually-hidden' }, `${SAMPLES_TEXT.answer}: `), tokens(vocab, answers[i])] : h('span', { class: 'status' }, ` ${SAMPLES_TEXT.noAnswer}`),
      ),
      h(
        'dl',
        { class: 'sample-runs' },
        ['buggy', 'fixed'].map((run) =>
          h(
            'div',
            { class: `sample-run ${run}`, dataset: { run } },
            h('dt', {}, h('span', { class: `swatch ${run} ${run === 'buggy' ? 'dashed' : 'solid'}`, 'aria-hidden': 'true' }), SAMPLES_TEXT.writes[run]),
            h('dd', {}, tokens(vocab, completions[run][i]), verdict(vocab, completions[run][i], answers[i], limit)),
          ),
        ),
      ),
    ),
  );

  const probRows = [];
  prompts.forEach((prompt, i) => {
    const at = { buggy: top(vocab, buggy.probsAtEnd, i, V), fixed: top(vocab, fixed.probsAtEnd, i, V) };
    const after = { buggy: top(vocab, buggy.probsAfterEos, i, V), fixed: top(vocab, fixed.probsAfterEos, i, V) };
    if (!at.buggy || !at.fixed) return;
    const p = (x) => formatNumber(x, 3);
    probRows.push(
      h(
        'tr',
        { dataset: { sample: String(i) } },
        h('th', { scope: 'row' }, tokens(vocab, prompt)),
        h('td', { dataset: { run: 'buggy', eos: String(at.buggy.row[eos]) } }, p(at.buggy.row[eos])),
        h('td', { dataset: { run: 'fixed', eos: String(at.fixed.row[eos]) } }, p(at.fixed.row[eos])),
        h('td', {}, tokens(vocab, [vocab.indexOf(at.buggy.word)]), ` ${p(at.buggy.p)}`),
        h('td', {}, tokens(vocab, [vocab.indexOf(at.fixed.word)]), ` ${p(at.fixed.p)}`),
        h('td', {}, tokens(vocab, [vocab.indexOf(after.buggy.word)]), ` ${p(after.buggy.p)}`),
        h('td', {}, tokens(vocab, [vocab.indexOf(after.fixed.word)]), ` ${p(after.fixed.p)}`),
      ),
    );
  });

  const table = (caption, columns, body, name) =>
    h(
      'div',
      { class: 'table-scroll', role: 'region', 'aria-label': caption, tabindex: '0' },
      h('table', { class: `train-table ${name}` }, h('caption', {}, caption), h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))), h('tbody', {}, body)),
    );

  replaceChildren(
    container,
    h('h3', {}, SAMPLES_TEXT.samplesTitle),
    h('p', {}, SAMPLES_TEXT.samplesIntro(limit)),
    h('ol', { class: 'samples', 'aria-label': SAMPLES_TEXT.caption }, sampleCards),
    h('h3', {}, SAMPLES_TEXT.probsTitle),
    h('p', {}, SAMPLES_TEXT.probsIntro),
    table(SAMPLES_TEXT.probsCaption, SAMPLES_TEXT.probsColumns, probRows, 'boundary'),
  );
}
