// derivation.js — the worked loss-dilution derivation: five steps whose formulas are typeset
// with KaTeX and whose numbers are the core's (inspect `summary` of the buggy and fixed batch).
//
//   const derivation = createDerivation(container);
//   derivation.update({ buggy, fixed, k });   // two inspect responses
//
// Numbers are only formatted here (4 decimals) and placed into the TeX; every one of them,
// results included, is a field the core returned. KaTeX renders into elements with
// katex.render (DOM + CSSOM, allowed by the page's CSP) with trust: false.
// Not here: asking the core, the plot (plot.js) or the slider (main.js).

import katex from 'katex';
import 'katex/dist/katex.min.css'; // Vite self-hosts the fonts it references

import { h, replaceChildren } from '../shared/dom.js';
import { formatLoss, formatNumber, formatShare } from '../shared/format.js';

// Every user-visible string of the derivation, in one place (TeX included).
export const DERIVATION_TEXT = {
  steps: [
    {
      title: 'Count and sum the losses of the real-token targets',
      before: (r) =>
        `Under the causal shift the logit at position t is scored against the label at t + 1. ` +
        `${r.N} of the scored labels sit on real tokens; their token losses add up to S_real.`,
      tex: (r) => [
        String.raw`N_{\text{real}} = ${r.N}`,
        String.raw`S_{\text{real}} = \sum_{\text{real targets}} \ell_t = ${r.S}`,
        String.raw`\bar\ell_{\text{real}} = \frac{S_{\text{real}}}{N_{\text{real}}} = \frac{${r.S}}{${r.N}} = ${r.mean}`,
      ],
    },
    {
      title: 'Count and sum the losses of the pad targets',
      before: (p) =>
        `With labels = input_ids every pad is a label too: the last real token learns to predict the first pad, ` +
        `and each pad the next pad: ${p.N} pad targets here. Pad after pad is easy to predict once the model has seen a few, so their mean loss falls as the padding grows.`,
      tex: (p) => [
        String.raw`N_{\text{pad}} = ${p.N}`,
        String.raw`S_{\text{pad}} = \sum_{\text{pad targets}} \ell_t = ${p.S}`,
        String.raw`\bar\ell_{\text{pad}} = \frac{S_{\text{pad}}}{N_{\text{pad}}} = ${p.mean}`,
      ],
    },
    {
      title: 'The loss the trainer reports',
      before: () => 'The mean over every scored target mixes the two groups, weighted by their counts:',
      tex: (x) => [
        String.raw`L = \frac{S_{\text{real}} + S_{\text{pad}}}{N_{\text{real}} + N_{\text{pad}}}`,
        String.raw`L = \frac{${x.Sr} + ${x.Sp}}{${x.Nr} + ${x.Np}} = ${x.L}`,
      ],
    },
    {
      title: 'The loss with the pads masked',
      before: () => 'With −100 on every pad label only the real targets are scored:',
      tex: (x) => [String.raw`L_{\text{fixed}} = \frac{S_{\text{real}}}{N_{\text{real}}} = \frac{${x.S}}{${x.N}} = ${x.L}`],
    },
    {
      title: 'What it does to each real token’s gradient',
      before: () =>
        'The mean gives every scored target the same weight, one over the number of targets. With the pads masked that weight is 1 / N_real; with pads scored it is smaller, so next to masking the pads each real token’s gradient is multiplied by N_real / (N_real + N_pad):',
      tex: (x) => [
        String.raw`\frac{\partial L}{\partial \ell_t} = \frac{1}{N_{\text{real}} + N_{\text{pad}}}`,
        String.raw`\frac{N_{\text{real}}}{N_{\text{real}} + N_{\text{pad}}} = \frac{${x.Nr}}{${x.Nr} + ${x.Np}} = ${x.factor}`,
      ],
    },
  ],
  noPads: 'No pad is scored in this batch, so there is nothing to sum here.',
  adam:
    'Under plain SGD this factor shrinks every real-token step. Adam divides each update by a running estimate of the gradient’s size, so a constant factor largely cancels; but this factor is not constant: it changes from batch to batch with the share of padding, so real tokens in pad-heavy batches count for less than those in full ones, and the pad targets pull the model towards predicting pads.',
  reported: (L, Lf, lower) =>
    lower
      ? `The logged loss reads ${L} instead of ${Lf}: lower, though the model predicts the real tokens no better.`
      : `The logged loss reads ${L} instead of ${Lf}.`,
  shareLine: (share, k) => `Pad share of this batch: ${share} (k = ${k}).`,
  stepLabel: (i) => `Step ${i + 1}`,
};

function typeset(element, tex) {
  // throwOnError: false renders a bad formula in red instead of throwing; trust: false keeps
  // \href, \url, \htmlClass and friends switched off. Inline mode with \displaystyle: the same
  // big fractions as display mode, but KaTeX may break the line after "=" or "+", so a long chain
  // wraps on a phone instead of being cut off at the screen's edge (0.8608 read as 0.860).
  katex.render(String.raw`\displaystyle ${tex}`, element, { displayMode: false, throwOnError: false, trust: false, output: 'htmlAndMathml' });
}

const fmt = (x) => formatNumber(x, 4);

export function createDerivation(container) {
  const list = h('ol', { class: 'derivation' });
  const closing = h('div', { class: 'derivation-closing' });
  replaceChildren(container, list, closing);

  function update({ buggy, fixed, k }) {
    const b = buggy.summary;
    const f = fixed.summary;
    const values = [
      { N: b.real_targets, S: fmt(b.sum_real), mean: formatLoss(b.loss_real) },
      { N: b.pad_targets, S: fmt(b.sum_pad), mean: formatLoss(b.loss_pad) },
      { Sr: fmt(b.sum_real), Sp: fmt(b.sum_pad), Nr: b.real_targets, Np: b.pad_targets, L: formatLoss(b.loss) },
      { S: fmt(f.sum_real), N: f.real_targets, L: formatLoss(f.loss) },
      { Nr: b.real_targets, Np: b.pad_targets, factor: formatNumber(b.dilution_factor, 4) },
    ];
    const items = DERIVATION_TEXT.steps.map((step, i) => {
      const math = h('div', { class: 'math', dataset: { step: String(i + 1) } });
      const skip = i === 1 && b.pad_targets === 0;
      if (skip) math.textContent = DERIVATION_TEXT.noPads;
      else
        for (const tex of step.tex(values[i])) {
          const equation = h('div', { class: 'equation' });
          typeset(equation, tex);
          math.append(equation);
        }
      return h('li', {}, h('h3', {}, step.title), h('p', {}, step.before(values[i])), math);
    });
    replaceChildren(list, items);
    replaceChildren(
      closing,
      h('p', { class: 'note-box' }, DERIVATION_TEXT.reported(formatLoss(b.loss), formatLoss(f.loss), b.loss < f.loss)),
      h('p', {}, DERIVATION_TEXT.adam),
      h('p', { class: 'status' }, DERIVATION_TEXT.shareLine(formatShare(b.pad_share), k)),
    );
  }

  return { update };
}
