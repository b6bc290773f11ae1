// curves.js — the Train page's live curves, drawn with uPlot: the loss each trainer reports and
// the loss over real targets, the eval loss (scored the correct way for both runs), and P(<eos>)
// where an answer ends. One point per logged step, straight from the workers' lines.
//
//   const curves = createCurves(container, totalSteps);   // empty axes until the first run
//   curves.reset(totalSteps);
//   curves.add('buggy', lines);   // Float64Array [step, train, real, eval, eos] × k
//
// Lines differ by dash pattern as well as colour, each chart's legend names them in words, and a
// table of the same numbers (filled in as lines arrive) is the charts' text alternative. Redraws
// are batched to one per animation frame, so a burst of messages costs one paint. Colours come
// from site.css variables and follow the colour scheme. Not here: any arithmetic on the numbers.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

import { h, replaceChildren } from '../shared/dom.js';
import { formatLoss, formatNumber } from '../shared/format.js';
import { decadesBetween } from './log-axis.js';

// Every user-visible string of the curves, in one place.
export const CURVES_TEXT = {
  step: 'step',
  charts: {
    train: {
      title: 'Training loss',
      axis: 'loss (log scale)',
      label: 'Training loss against step, log scale. Dashed: the buggy run’s loss as its trainer reports it. Dotted: the buggy run’s loss over the real targets only. Solid: the fixed run, whose reported loss is its loss over real targets.',
    },
    eval: {
      title: 'Eval loss, scored the correct way',
      axis: 'loss (log scale)',
      label: 'Eval loss against step, log scale, scored the correct way for both runs. Dashed: buggy run. Solid: fixed run.',
    },
    eos: {
      title: 'P(<eos>) where an answer ends',
      axis: 'probability',
      label: 'Mean probability of <eos> right after the last word of each eval answer, against step. Dashed: buggy run. Solid: fixed run.',
    },
  },
  series: {
    buggyReported: 'buggy, as reported',
    buggyReal: 'buggy, real targets only',
    fixed: 'fixed (reported = real)',
    buggy: 'buggy',
    fixedPlain: 'fixed',
  },
  tableSummary: 'The plotted numbers',
  tableCaption: 'Every logged step of both runs',
  columns: ['step', 'buggy: reported', 'buggy: real targets', 'fixed: reported', 'buggy: eval', 'fixed: eval', 'buggy: P(<eos>)', 'fixed: P(<eos>)'],
  empty: 'Press Train: the curves fill in as both runs learn.',
};

const FIELDS = { step: 0, train: 1, real: 2, eval: 3, eos: 4 };
const LINE = 5;

function colours() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  return { muted: v('--muted'), line: v('--line'), bad: v('--bad'), good: v('--good') };
}

// Which series each chart draws: [label, run, field, style].
const CHART_SERIES = {
  train: [
    [CURVES_TEXT.series.buggyReported, 'buggy', 'train', 'dashed'],
    [CURVES_TEXT.series.buggyReal, 'buggy', 'real', 'dotted'],
    [CURVES_TEXT.series.fixed, 'fixed', 'train', 'solid'],
  ],
  eval: [
    [CURVES_TEXT.series.buggy, 'buggy', 'eval', 'dashed'],
    [CURVES_TEXT.series.fixedPlain, 'fixed', 'eval', 'solid'],
  ],
  eos: [
    [CURVES_TEXT.series.buggy, 'buggy', 'eos', 'dashed'],
    [CURVES_TEXT.series.fixedPlain, 'fixed', 'eos', 'solid'],
  ],
};

const DASH = { dashed: [8, 5], dotted: [2, 4], solid: undefined };

// An axis' labels, written by `format`; uPlot passes null for a rule whose label would not fit
// (a narrow chart), which gets none.
const labels = (format) => (u, values) => values.map((v) => (v === null ? '' : format(v)));

export function createCurves(container, totalSteps = 1) {
  const charts = {};
  const tableBody = h('tbody');
  let total = totalSteps;
  const data = { buggy: [], fixed: [] }; // arrays of lines (each a plain array of 5 numbers)
  const rowsShown = new Set();
  let queued = false;

  const grid = h('div', { class: 'curve-grid' });
  for (const [key, text] of Object.entries(CURVES_TEXT.charts)) {
    const box = h('div', { class: 'plot-box', role: 'img', 'aria-label': text.label });
    const legend = h(
      'ul',
      { class: 'plot-legend' },
      CHART_SERIES[key].map(([label, run, , style]) =>
        h('li', {}, h('span', { class: `swatch ${run} ${style}`, 'aria-hidden': 'true' }), label),
      ),
    );
    grid.append(h('figure', { class: 'curve', dataset: { chart: key } }, h('figcaption', {}, text.title), box, legend));
    charts[key] = { box, plot: null, key };
  }
  const table = h(
    'details',
    { class: 'plot-table' },
    h('summary', {}, CURVES_TEXT.tableSummary),
    h(
      'div',
      { class: 'table-scroll', role: 'region', 'aria-label': CURVES_TEXT.tableCaption, tabindex: '0' },
      h('table', {}, h('caption', {}, CURVES_TEXT.tableCaption), h('thead', {}, h('tr', {}, CURVES_TEXT.columns.map((c) => h('th', { scope: 'col' }, c)))), tableBody),
    ),
  );
  // Before the first run the charts are empty axes; this line says how to fill them.
  const emptyNote = h('p', { class: 'status plot-empty' }, CURVES_TEXT.empty);
  replaceChildren(container, emptyNote, grid, table);

  function seriesData(key) {
    const steps = new Set();
    for (const run of ['buggy', 'fixed']) for (const line of data[run]) steps.add(line[FIELDS.step]);
    const xs = [...steps].sort((a, b) => a - b);
    const columns = CHART_SERIES[key].map(([, run, field]) => {
      const byStep = new Map(data[run].map((line) => [line[FIELDS.step], line[FIELDS[field]]]));
      return xs.map((x) => byStep.get(x) ?? null);
    });
    return [xs, ...columns];
  }

  function options(key, width) {
    const c = colours();
    const axis = { stroke: c.muted, grid: { stroke: c.line, width: 1 }, ticks: { stroke: c.line, width: 1 } };
    const isProbability = key === 'eos';
    return {
      width,
      height: Math.round(Math.min(260, Math.max(180, width * 0.62))),
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: {
        x: { time: false, range: () => [0, total] },
        y: isProbability ? { range: () => [0, 1] } : { distr: 3, range: (u, min, max) => [Math.min(min ?? 0.01, 0.01) * 0.8, Math.max(max ?? 4, 4) * 1.2] },
      },
      axes: [
        // Our own labels, here and on y: uPlot's default formats with Intl, whose first use costs
        // the page 35–45 ms (scripts/vite/uplot-lazy-intl.mjs).
        { ...axis, label: CURVES_TEXT.step, labelSize: 20, values: labels((v) => formatNumber(v, 1)) },
        isProbability
          ? { ...axis, label: CURVES_TEXT.charts[key].axis, size: 50, values: labels((v) => formatNumber(v, 2)) }
          : {
              ...axis,
              label: CURVES_TEXT.charts[key].axis,
              size: 50,
              // Log scale: rule and label only the powers of ten (1, 0.1, 0.01), not every 2…9.
              splits: (u, axisIndex, min, max) => decadesBetween(min, max),
              values: labels(String),
            },
      ],
      series: [
        {},
        ...CHART_SERIES[key].map(([label, run, , style]) => ({
          label,
          stroke: run === 'buggy' ? c.bad : c.good,
          width: style === 'dotted' ? 2.5 : 2,
          dash: DASH[style],
          points: { show: false },
          spanGaps: true,
        })),
      ],
    };
  }

  function draw(chart) {
    const width = Math.max(220, chart.box.clientWidth);
    chart.box.dataset.steps = String(total); // the x axis' end, for tests
    chart.plot?.destroy();
    chart.plot = new uPlot(options(chart.key, width), seriesData(chart.key), chart.box);
  }

  function redraw() {
    queued = false;
    for (const chart of Object.values(charts)) {
      if (!chart.plot) draw(chart);
      else chart.plot.setData(seriesData(chart.key));
    }
  }

  function schedule() {
    if (!queued) {
      queued = true;
      requestAnimationFrame(redraw);
    }
  }

  function appendRows() {
    const steps = [...new Set([...data.buggy, ...data.fixed].map((line) => line[FIELDS.step]))].sort((a, b) => a - b);
    for (const step of steps) {
      if (rowsShown.has(step)) continue;
      const b = data.buggy.find((line) => line[FIELDS.step] === step);
      const f = data.fixed.find((line) => line[FIELDS.step] === step);
      if (!b || !f) continue; // a row appears once both runs have logged the step
      rowsShown.add(step);
      tableBody.append(
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, String(step)),
          [b[1], b[2], f[1], b[3], f[3]].map((x) => h('td', {}, formatLoss(x))),
          [b[4], f[4]].map((x) => h('td', {}, formatNumber(x, 4))),
        ),
      );
    }
  }

  for (const chart of Object.values(charts)) draw(chart);

  new ResizeObserver(() => {
    for (const chart of Object.values(charts)) if (chart.plot && Math.abs(chart.plot.width - chart.box.clientWidth) > 4) draw(chart);
  }).observe(grid);
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    for (const chart of Object.values(charts)) draw(chart);
  });

  return {
    reset(totalSteps) {
      total = totalSteps;
      data.buggy = [];
      data.fixed = [];
      rowsShown.clear();
      tableBody.replaceChildren();
      emptyNote.hidden = true; // from the first Train on, the status line says what is happening
      for (const chart of Object.values(charts)) draw(chart);
    },
    // Before any run: the empty axes follow the Steps setting.
    setTotal(totalSteps) {
      if (totalSteps === total) return;
      total = totalSteps;
      for (const chart of Object.values(charts)) draw(chart);
    },
    add(run, lines) {
      for (let i = 0; i + LINE <= lines.length; i += LINE) data[run].push(Array.from(lines.subarray(i, i + LINE)));
      appendRows();
      schedule();
    },
    // The last logged line of a run, or null.
    last: (run) => data[run].at(-1) ?? null,
    // How many logged points each chart holds, per run (for tests and the live region).
    count: (run) => data[run].length,
  };
}
