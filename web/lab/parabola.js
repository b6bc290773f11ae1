// parabola.js — the function lab's picture: y = a·x² with the point at the learner's x, the
// tangent there, and its slope written beside it. SVG built with DOM calls (no markup strings;
// the CSP allows no inline styles, so colours come from classes in lab.css).
//
//   const picture = createParabola(container);
//   picture.draw({ a: 1, x: 1 });   // the curve over a window around x, the point (1, 1), slope 2
//
// The window always shows the point and both arms of the curve: x from −(|x| + 1) to |x| + 1,
// y between the curve's extremes there (0 included). Not here: the arithmetic (quadratic.js).

import { QUADRATIC } from './quadratic.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 360;
const H = 240;
const PAD = { left: 14, right: 14, top: 16, bottom: 22 };
const SAMPLES = 64;

// Every user-visible string of the picture, in one place.
export const PARABOLA_TEXT = {
  title: (a, x, y, slope) => `The curve y = ${a}·x², the point x = ${x}, y = ${y}, and its tangent with slope dy/dx = ${slope}`,
  curve: (a) => `y = ${a}·x²`,
  slope: (slope) => `slope dy/dx = ${slope}`,
  empty: 'Press Inspect to draw y = a·x² and its tangent at x.',
  // The same sentence in the picture, in two lines (SVG text does not wrap).
  emptyLines: ['Press Inspect to draw y = a·x²', 'and its tangent at x.'],
};

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Numbers as the panel writes them: enough digits, no float noise.
const show = (n) => String(Number(Number(n).toPrecision(6)));

export function createParabola(container) {
  const titleId = `parabola-title-${Math.random().toString(36).slice(2, 8)}`;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'parabola', role: 'img', 'aria-labelledby': titleId });
  const title = el('title', { id: titleId }, PARABOLA_TEXT.empty);
  svg.append(title);
  container.append(svg);

  function draw({ a, x }) {
    const y = QUADRATIC.value(a, x);
    const slope = QUADRATIC.dydx(a, x);
    const span = Math.abs(x) + 1;
    const x0 = -span;
    const x1 = span;
    const yEdge = QUADRATIC.value(a, span);
    let y0 = Math.min(0, yEdge);
    let y1 = Math.max(0, yEdge);
    if (y1 - y0 < 1e-9) {
      y0 -= 1;
      y1 += 1; // a = 0: a flat line still needs a window
    }
    const margin = (y1 - y0) * 0.08;
    y0 -= margin;
    y1 += margin;
    const px = (v) => PAD.left + ((v - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
    const py = (v) => H - PAD.bottom - ((v - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);

    const curve = [];
    for (let i = 0; i <= SAMPLES; i += 1) {
      const u = x0 + ((x1 - x0) * i) / SAMPLES;
      curve.push(`${px(u).toFixed(1)},${py(QUADRATIC.value(a, u)).toFixed(1)}`);
    }
    // The tangent through (x, y) with slope dy/dx, drawn over ±span/2 around the point.
    const half = span / 2;
    const t0 = x - half;
    const t1 = x + half;
    const tangent = [t0, t1].map((u) => `${px(u).toFixed(1)},${py(y + slope * (u - x)).toFixed(1)}`);

    const clipId = `${titleId}-clip`;
    const clip = el('clipPath', { id: clipId });
    clip.append(el('rect', { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right, height: H - PAD.top - PAD.bottom }));
    const plot = el('g', { 'clip-path': `url(#${clipId})` });
    plot.append(
      el('line', { class: 'axis', x1: px(x0), x2: px(x1), y1: py(0), y2: py(0) }),
      el('line', { class: 'axis', x1: px(0), x2: px(0), y1: py(y0), y2: py(y1) }),
      el('polyline', { class: 'curve', points: curve.join(' ') }),
      el('polyline', { class: 'tangent', points: tangent.join(' ') }),
      el('line', { class: 'drop', x1: px(x), x2: px(x), y1: py(0), y2: py(y) }),
      el('circle', { class: 'point', cx: px(x), cy: py(y), r: 5 }),
    );
    const labelBelow = a >= 0;
    // The slope is written beside the point, on the side with room, clear of the curve.
    const right = px(x) < W / 2;
    const slopeLabel = el(
      'text',
      { class: 'slope-label', x: px(x) + (right ? 12 : -12), y: Math.min(H - PAD.bottom - 4, Math.max(PAD.top + 12, py(y) + (labelBelow ? 22 : -12))), 'text-anchor': right ? 'start' : 'end' },
      PARABOLA_TEXT.slope(show(slope)),
    );
    const curveLabel = el('text', { class: 'curve-label', x: PAD.left + 4, y: PAD.top + 12 }, PARABOLA_TEXT.curve(show(a)));
    const xLabel = el('text', { class: 'x-label', x: px(x), y: H - 6, 'text-anchor': 'middle' }, `x = ${show(x)}`);
    title.textContent = PARABOLA_TEXT.title(show(a), show(x), show(y), show(slope));
    svg.replaceChildren(title, clip, plot, slopeLabel, curveLabel, xLabel);
    svg.dataset.slope = String(slope);
    svg.dataset.a = String(a);
    svg.dataset.x = String(x);
  }

  function clear() {
    title.textContent = PARABOLA_TEXT.empty;
    const label = el('text', { class: 'empty-label', x: W / 2, y: H / 2 - 4, 'text-anchor': 'middle' });
    // A space ends the first line, so the label's text reads as the sentence.
    PARABOLA_TEXT.emptyLines.forEach((line, i) =>
      label.append(el('tspan', { x: W / 2, dy: i ? '1.4em' : 0 }, i < PARABOLA_TEXT.emptyLines.length - 1 ? `${line} ` : line)),
    );
    svg.replaceChildren(title, label);
    delete svg.dataset.slope;
  }
  clear();
  return { draw, clear, element: svg };
}
