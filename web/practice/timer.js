// timer.js — the session clock: a stopwatch that measures real elapsed time, and the visible
// countdown with its two spoken moments.
//
//   const stop = startStopwatch((ms) => { spent += ms; });      // ~4 calls a second
//   const countdown = createCountdown(element, { limitSeconds: 600, announce, onTimeUp });
//   countdown.show(usedSeconds);                                   // after every tick
//
// Elapsed time comes from performance.now() differences, not from counting ticks, so a throttled
// background tab still measures the right time. The countdown is a role="timer" element (not
// live: a screen reader is not told every second); the page's live region is told once when a
// minute is left and once at zero. Not here: where the time is stored (main.js, the URL).

import { h, replaceChildren } from '../shared/dom.js';

// Every user-visible string of the timer, in one place.
export const TIMER_TEXT = {
  label: 'Time left',
  oneMinute: 'One minute left.',
  lessThanMinute: (seconds) => `Less than a minute left: ${seconds} seconds.`,
  timeUp: 'Time is up.',
  glyphLow: '⚠',
  glyph: '', // no glyph while time is plentiful; ⚠ marks the last minute besides the colour
};

/** 0 -> "0:00", 75 -> "1:15", 600 -> "10:00". */
export function formatClock(totalSeconds) {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function startStopwatch(onElapsed, intervalMs = 250) {
  let last = performance.now();
  const id = setInterval(() => {
    const now = performance.now();
    onElapsed(now - last);
    last = now;
  }, intervalMs);
  return () => {
    clearInterval(id);
    onElapsed(performance.now() - last);
  };
}

export function createCountdown(element, { limitSeconds, announce, onTimeUp }) {
  const glyph = h('span', { class: 'timer-glyph', 'aria-hidden': 'true' });
  const clock = h('span', { class: 'timer-clock', role: 'timer', 'aria-label': TIMER_TEXT.label });
  replaceChildren(element, glyph, h('span', { class: 'timer-label', 'aria-hidden': 'true' }, TIMER_TEXT.label), ' ', clock);
  let warned = false;
  let over = false;
  let shown = null;

  return {
    show(usedSeconds) {
      const left = Math.max(0, limitSeconds - usedSeconds);
      const whole = Math.ceil(left);
      if (whole !== shown) {
        shown = whole;
        clock.textContent = formatClock(whole);
      }
      const low = left <= 60;
      element.classList.toggle('low', low);
      glyph.textContent = low ? TIMER_TEXT.glyphLow : TIMER_TEXT.glyph;
      if (left <= 0) {
        if (!over) {
          over = true;
          announce(TIMER_TEXT.timeUp);
          onTimeUp();
        }
      } else if (low && !warned) {
        warned = true;
        // Said once: at the minute mark, or at once when a resumed session has less left.
        announce(whole >= 59 ? TIMER_TEXT.oneMinute : TIMER_TEXT.lessThanMinute(whole));
      }
    },
  };
}
