// summary.js — the figures under a token grid: what the trainer would report for this batch.
//
//   replaceChildren(box, summaryList(inspectResponse));
//   const summary = createSummary(box); summary.update(inspectResponse);   // redraws in place
//   summaryRows(inspectResponse) -> [{ key, label, value, text, help }]   (compare.js uses it)
//   (six figures, plus the gradient when the request asked for it with `gradient: true`)
//
// Every value is read from the core's inspect response (summary, batch.rows); this file only
// formats them. Not here: the grid itself (token-grid.js) or any arithmetic on losses.

import { h, replaceChildren } from '../shared/dom.js';
import { formatLoss, formatNumber, formatShare } from '../shared/format.js';

// Every user-visible string of the summary, in one place.
export const SUMMARY_TEXT = {
  title: 'What the trainer would report',
  targets: 'targets scored',
  targetsHelp: (real, pad) => `${real} at real tokens, ${pad} at pads`,
  loss: 'loss over targets',
  lossHelp: 'the mean the trainer logs: sum of scored token losses / targets',
  lossNone: (reason) => `none — ${reason}`,
  lossReal: 'loss over real-token targets',
  lossAll: 'loss over all positions',
  lossAllHelp: 'what labels = input_ids would score (same model)',
  padShare: 'pad share',
  padShareHelp: 'pad positions / all positions',
  dilution: 'dilution factor',
  dilutionHelp: 'real targets / all targets: the weight left on each real token',
  eos: 'EOS targets',
  eosHelp: (perRow) => `per row: ${perRow}`,
  eosNone: 'no eos_token_id',
  gradient: 'gradient of the loss',
  gradientFinite: (norm) => `norm ${norm}, no NaN`,
  gradientNonFinite: (nan, inf) => (inf ? `NaN in ${nan} entries, ±inf in ${inf}` : `NaN in ${nan} entries`),
  gradientHelp: 'd loss / d logits as PyTorch autograd computes it; the norm is what clip_grad_norm_ adds up',
};

// Sum of per-row counts the core reported (a count, not a computed loss). null if absent.
function sumRows(rows, key) {
  if (!rows?.length || rows.some((r) => r[key] === null || r[key] === undefined)) return null;
  return rows.reduce((acc, r) => acc + r[key], 0);
}

export function summaryRows(response) {
  const s = response.summary;
  const rows = response.batch.rows;
  const eos = sumRows(rows, 'eos_targets');
  return [
    { key: 'targets', label: SUMMARY_TEXT.targets, value: s.targets, text: String(s.targets), help: SUMMARY_TEXT.targetsHelp(s.real_targets, s.pad_targets) },
    {
      key: 'loss',
      label: SUMMARY_TEXT.loss,
      value: s.loss,
      text: s.loss === null ? SUMMARY_TEXT.lossNone(response.loss?.loss_null_reason ?? '') : formatLoss(s.loss),
      help: SUMMARY_TEXT.lossHelp,
    },
    { key: 'loss_all_positions', label: SUMMARY_TEXT.lossAll, value: s.loss_all_positions, text: formatLoss(s.loss_all_positions), help: SUMMARY_TEXT.lossAllHelp },
    { key: 'pad_share', label: SUMMARY_TEXT.padShare, value: s.pad_share, text: formatShare(s.pad_share), help: SUMMARY_TEXT.padShareHelp },
    { key: 'dilution_factor', label: SUMMARY_TEXT.dilution, value: s.dilution_factor, text: formatNumber(s.dilution_factor, 4), help: SUMMARY_TEXT.dilutionHelp },
    {
      key: 'eos_targets',
      label: SUMMARY_TEXT.eos,
      value: eos,
      text: eos === null ? '—' : String(eos),
      help: eos === null ? SUMMARY_TEXT.eosNone : SUMMARY_TEXT.eosHelp(rows.map((r) => r.eos_targets).join(' + ')),
    },
    ...gradientRows(response.loss),
  ];
}

// Only when the request asked for the gradient (`gradient: true`): its norm, or how many entries
// PyTorch would make NaN or infinite (the core counts them; it never returns NaN).
function gradientRows(loss) {
  if (loss?.gradient_nan_count === undefined) return [];
  const finite = loss.gradient_norm !== null;
  return [
    {
      key: 'gradient',
      label: SUMMARY_TEXT.gradient,
      value: loss.gradient_norm,
      text: finite ? SUMMARY_TEXT.gradientFinite(formatNumber(loss.gradient_norm, 4)) : SUMMARY_TEXT.gradientNonFinite(loss.gradient_nan_count, loss.gradient_inf_count),
      help: SUMMARY_TEXT.gradientHelp,
    },
  ];
}

export function summaryList(response) {
  return h(
    'dl',
    { class: 'figures grid-summary' },
    summaryRows(response).map((row) =>
      h(
        'div',
        { dataset: { figure: row.key } },
        h('dt', {}, row.label),
        h('dd', { dataset: { value: row.value === null ? '' : String(row.value) } }, row.text),
        h('dd', { class: 'figure-help' }, row.help),
      ),
    ),
  );
}

// The summary list kept on screen and rewritten in place: the same request gives the same figures,
// so an update only changes the values and help texts that differ (a grid toggle must redraw
// within one frame).
export function createSummary(container) {
  let list = null;
  return {
    update(response) {
      const rows = summaryRows(response);
      const items = list ? [...list.children] : [];
      if (!list || items.length !== rows.length || rows.some((row, i) => items[i].dataset.figure !== row.key)) {
        list = summaryList(response);
        replaceChildren(container, list);
        return;
      }
      rows.forEach((row, i) => {
        const [, value, help] = items[i].children;
        const data = row.value === null ? '' : String(row.value);
        if (value.dataset.value !== data) value.dataset.value = data;
        if (value.textContent !== row.text) value.textContent = row.text;
        if (help.textContent !== row.help) help.textContent = row.help;
      });
    },
  };
}
