// plot.js — reported loss against pad share, buggy vs fixed, drawn with uPlot; each point is an
// inspect answer the page collected (one core call per slider value and labelling).
//
//   const plot = createLossPlot(container);
//   plot.update({ share: [...], buggy: [...], fixed: [...], current: k });
//
// Lines differ by dash pattern and marker as well as colour, the legend names them in words, and
// a table of the same numbers follows the canvas as its text alternative. Colours are read from
// site.css variables and re-read when the colour scheme changes. Not here: asking the core.

import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

import { h, replaceChildren } from '../shared/dom.js';
import { formatLoss, formatShare } from '../shared/format.js';

// Every user-visible string of the plot, in one place.
export const PLOT_TEXT = {
  label: 'Reported loss against pad share. Dashed line: labels = input_ids (pads scored). Solid line: pads labelled −100. The ringed point is the batch on the slider.',
  xAxis: 'pad share of the batch',
  yAxis: 'reported loss',
  buggy: 'labels = input_ids (pads scored)',
  fixed: 'pads labelled −100',
  current: 'the batch on the slider',
  tableSummary: 'The plotted numbers',
  tableCaption: 'Reported loss for each number of extra pads k',
  columns: ['k', 'pad share', 'reported loss, labels = input_ids', 'reported loss, pads −100'],
};

function colours() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  return { ink: v('--ink'), muted: v('--muted'), line: v('--line'), bad: v('--bad'), good: v('--good'), focus: v('--focus') };
}

export function createLossPlot(container) {
  const canvasBox = h('div', { class: 'plot-box', role: 'img', 'aria-label': PLOT_TEXT.label });
  const legend = h(
    'ul',
    { class: 'plot-legend' },
    h('li', {}, h('span', { class: 'swatch buggy', 'aria-hidden': 'true' }), PLOT_TEXT.buggy),
    h('li', {}, h('span', { class: 'swatch fixed', 'aria-hidden': 'true' }), PLOT_TEXT.fixed),
    h('li', {}, h('span', { class: 'swatch current', 'aria-hidden': 'true' }), PLOT_TEXT.current),
  );
  const tableBody = h('tbody');
  const table = h(
    'details',
    { class: 'plot-table' },
    h('summary', {}, PLOT_TEXT.tableSummary),
    h(
      'div',
      { class: 'table-scroll', role: 'region', 'aria-label': PLOT_TEXT.tableCaption, tabindex: '0' },
      h('table', {}, h('caption', {}, PLOT_TEXT.tableCaption), h('thead', {}, h('tr', {}, PLOT_TEXT.columns.map((c) => h('th', { scope: 'col' }, c)))), tableBody),
    ),
  );
  replaceChildren(container, canvasBox, legend, table);

  let chart = null;
  let last = null;

  function options(width) {
    const c = colours();
    const axis = { stroke: c.muted, grid: { stroke: c.line, width: 1 }, ticks: { stroke: c.line, width: 1 } };
    return {
      width,
      height: Math.round(Math.min(320, Math.max(200, width * 0.55))),
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(max * 1.1, 0.1)] } },
      axes: [
        { ...axis, label: PLOT_TEXT.xAxis, values: (u, vals) => vals.map((v) => formatShare(v)) },
        { ...axis, label: PLOT_TEXT.yAxis, values: (u, vals) => vals.map((v) => v.toFixed(2)), size: 52 },
      ],
      series: [
        {},
        { label: PLOT_TEXT.buggy, stroke: c.bad, width: 2, dash: [8, 5], points: { show: true, size: 5, stroke: c.bad, fill: c.bad } },
        { label: PLOT_TEXT.fixed, stroke: c.good, width: 2, points: { show: true, size: 5, stroke: c.good, fill: c.good } },
        { label: PLOT_TEXT.current, stroke: c.focus, width: 0, points: { show: true, size: 13, width: 3, stroke: c.focus, fill: 'transparent' } },
      ],
    };
  }

  function data(points) {
    const ringed = points.share.map((_, i) => (i === points.current ? points.buggy[i] : null));
    return [points.share, points.buggy, points.fixed, ringed];
  }

  function draw() {
    if (!last) return;
    const width = Math.max(240, canvasBox.clientWidth);
    chart?.destroy();
    chart = new uPlot(options(width), data(last), canvasBox);
  }

  new ResizeObserver(() => {
    if (chart && Math.abs(chart.width - canvasBox.clientWidth) > 4) draw();
  }).observe(canvasBox);
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', draw);

  // The table's rows are built with the data; a new current point only moves the marking.
  let rows = [];
  function markCurrent(current) {
    rows.forEach((tr, k) => {
      const is = k === current;
      if (tr.classList.contains('current') === is) return;
      tr.classList.toggle('current', is);
      if (is) tr.setAttribute('aria-current', 'true');
      else tr.removeAttribute('aria-current');
    });
  }

  function update(points) {
    const sameData = last && last.share === points.share && last.buggy === points.buggy && last.fixed === points.fixed;
    const rebuild = !last || last.share.length !== points.share.length;
    last = points;
    if (rebuild || !chart) draw();
    else chart.setData(data(points));
    if (!sameData) {
      rows = points.share.map((share, k) =>
        h('tr', {}, h('th', { scope: 'row' }, String(k)), h('td', {}, formatShare(share)), h('td', {}, formatLoss(points.buggy[k])), h('td', {}, formatLoss(points.fixed[k]))),
      );
      replaceChildren(tableBody, rows);
    }
    markCurrent(points.current);
  }

  return { update };
}
