// later.js — doing the work a first screen does not need after that screen is up: render a
// section below the fold when it comes near the viewport (or when the page is idle), and run a
// step after the next frame has been painted. Every page uses the same three helpers, so "what
// waits" is decided in one place per page, by the page.
//
//   renderLater(section, () => drawTheFormulas(), { until: 'visible' });  // loads KaTeX only then
//   renderLater(section, () => drawTheGrid());                            // idle or visible, first wins
//   const later = renderLater(null, drawHiddenPanels);  later.now();      // idle, or when asked
//   afterPaint(() => updateThePlot());    // after the frame that shows what was just written
//   const soon = latest(() => redrawGrids(k));  soon();  soon();   // one run for a burst of calls
//
// Not a scheduler: no priorities, no queues beyond "the latest call wins". Everything still
// renders without these APIs (old browsers): a missing IntersectionObserver or
// requestIdleCallback means "now" or a timer.

// How far below the viewport a section starts rendering, so it is ready when scrolled to: a
// screen's worth for cheap sections; less for those that wait for 'visible' because their code
// is large (they load while the learner scrolls the last few hundred pixels towards them).
const NEAR = '600px 0px';
const NEAR_HEAVY = '250px 0px';
// The longest a section waits for an idle moment before it renders anyway.
const IDLE_TIMEOUT_MS = 1500;

/**
 * Calls `render()` once: when `element` (if given) comes within NEAR of the viewport or the Tab
 * key is first pressed (keyboard users reach it without scrolling), or — with
 * until: 'idle' (the default) — when the browser is first idle, whichever comes first.
 * until: 'visible' waits for the viewport only (for sections whose code or fonts are large).
 * Returns { now(), pending() }: now() renders at once (e.g. when a link jumps to the section).
 */
export function renderLater(element, render, { until = 'idle' } = {}) {
  let done = false;
  let observer = null;
  let idle = null;
  // A keyboard user reaches a section by Tab, and focus moves faster than a lazy chunk loads:
  // when focus scrolls the section into view it is already past it. So the first Tab anywhere on
  // the page renders the section, and its controls exist before focus gets there.
  const onTab = (event) => {
    if (event.key === 'Tab') run();
  };
  const run = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    if (element && typeof document !== 'undefined') document.removeEventListener('keydown', onTab, true);
    if (idle !== null) (globalThis.cancelIdleCallback ?? clearTimeout)(idle);
    render();
  };
  if (element && typeof IntersectionObserver === 'function') {
    observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) run();
    }, { rootMargin: until === 'visible' ? NEAR_HEAVY : NEAR });
    observer.observe(element);
  } else if (element) {
    queueMicrotask(run);
  }
  if (element && typeof document !== 'undefined') document.addEventListener('keydown', onTab, true);
  if (until === 'idle') {
    idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS }) : setTimeout(run, 200);
  }
  return { now: run, pending: () => !done };
}

/** Runs `work` after the next frame is painted (rAF, then a task), so a write shows first. */
export function afterPaint(work) {
  requestAnimationFrame(() => setTimeout(work, 0));
}

/**
 * Resolves after the next frame is painted. A page awaits it before building a large part of
 * itself, so the first paint (the HTML, the header, the styles) is not held up by that work.
 */
export function painted() {
  return new Promise((resolve) => afterPaint(resolve));
}

/**
 * Wraps `work` so a burst of calls runs it once, after paint, with the arguments of the last
 * call: a slider drag redraws its slow parts once the learner pauses, not at every step.
 * `delayMs` (default 0) waits that long after the last call. cancel() drops a pending run.
 */
export function latest(work, { delayMs = 0 } = {}) {
  let args = null;
  let timer = null;
  const fire = () => {
    timer = null;
    const last = args;
    args = null;
    if (last) work(...last);
  };
  const call = (...next) => {
    args = next;
    if (timer !== null) clearTimeout(timer);
    timer = 'waiting';
    requestAnimationFrame(() => {
      if (timer !== 'waiting') return;
      timer = setTimeout(fire, delayMs);
    });
  };
  call.cancel = () => {
    args = null;
    if (timer !== null && timer !== 'waiting') clearTimeout(timer);
    timer = null;
  };
  return call;
}
