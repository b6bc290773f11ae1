// see-it-break.js — the exercise's buggy and fixed configurations run by the core: the grid
// comparison (web/grid/compare.js), the executable claims checked live, and the explanation's
// live numbers filled in.
//
//   const panel = createSeeItBreak(section, exercise);   // shows "loading" straight away
//   panel.run(corePromise, { onResponses(context) {} }); // renders once the core is ready
//
// The grid module is loaded on demand, so the passage never waits for it or for the wasm core.
// Not here: the claims grammar (shared/claims.js) or the grid itself (grid/).

import { h, replaceChildren } from '../shared/dom.js';
import { evaluateClaims } from '../shared/claims.js';

// Every user-visible string of the panel, in one place.
export const BREAK_TEXT = {
  title: 'See it break',
  intro:
    'The same small batch collated twice by masklab’s C++ core — as the code above does it, and fixed — scored by a tiny bigram model fitted on the batch. Every number here is computed now, in your browser.',
  loading: 'Loading the WebAssembly core and the token grid…',
  coreFailed: (message) => `The WebAssembly core could not be loaded, so this comparison cannot be computed: ${message}`,
  gridFailed: (message) => `The token grid could not be loaded: ${message}`,
  none: 'This exercise has no runnable configuration.',
  claimsTitle: 'Claims, checked against these two batches',
  claimsIntro: 'Each sentence below is tested against the core’s answers every time this page loads.',
  holds: 'holds',
  fails: 'does not hold',
  buggy: 'As written',
  fixed: 'Fixed',
  chat: 'This exercise’s comparison runs on a real model’s chat template and tokenizer, which load on the Chat masks page (tens of megabytes, so not here). Its claims are checked there, live.',
  openChat: 'See it break on the Chat masks page',
};

export function createSeeItBreak(section, exercise) {
  const body = h('div', { class: 'break-body', 'aria-busy': 'true' }, h('p', { class: 'status loading' }, BREAK_TEXT.loading));
  const claimsBox = h('div', { class: 'claims' });
  replaceChildren(section, h('h2', { id: 'break-title' }, BREAK_TEXT.title), h('p', {}, BREAK_TEXT.intro), body, claimsBox);

  function fail(message) {
    body.removeAttribute('aria-busy');
    replaceChildren(body, h('p', { class: 'error-box', role: 'alert' }, message));
  }

  function showClaims(results) {
    replaceChildren(
      claimsBox,
      h('h3', {}, BREAK_TEXT.claimsTitle),
      h('p', {}, BREAK_TEXT.claimsIntro),
      h(
        'ul',
        { class: 'claim-list' },
        results.map((r) =>
          h(
            'li',
            { class: `claim ${r.ok ? 'ok' : 'failed'}` },
            h('span', { class: 'claim-glyph', 'aria-hidden': 'true' }, r.ok ? '✓' : '✗'),
            h('span', { class: 'claim-verdict' }, r.ok ? BREAK_TEXT.holds : BREAK_TEXT.fails),
            ' ',
            h('span', { class: 'claim-text' }, r.text),
            h('small', { class: 'claim-details' }, r.details),
          ),
        ),
      ),
    );
  }

  async function run(corePromise, { onResponses = () => {}, onFailure = () => {} } = {}) {
    const config = exercise.see_it_break;
    if (!config) {
      body.removeAttribute('aria-busy');
      replaceChildren(body, h('p', {}, BREAK_TEXT.none));
      return;
    }
    if (config.kind === 'chat') {
      body.removeAttribute('aria-busy');
      replaceChildren(
        body,
        h('p', {}, BREAK_TEXT.chat),
        h('p', {}, h('a', { class: 'button', href: `./chat.html?ex=${encodeURIComponent(exercise.id)}` }, BREAK_TEXT.openChat)),
      );
      return;
    }
    let core;
    let compare;
    try {
      core = await corePromise;
    } catch (error) {
      fail(BREAK_TEXT.coreFailed(error.message));
      onFailure(error.message);
      return;
    }
    try {
      compare = await import('../grid/compare.js');
    } catch (error) {
      compare = null;
      fail(BREAK_TEXT.gridFailed(error.message));
    }
    let responses;
    if (compare) {
      const result = compare.renderComparison(body, core, {
        buggy: config.buggy,
        fixed: config.fixed,
        buggyLabel: config.buggy_label ?? BREAK_TEXT.buggy,
        fixedLabel: config.fixed_label ?? BREAK_TEXT.fixed,
      });
      body.removeAttribute('aria-busy');
      responses = result.ok ? { buggy: result.buggy, fixed: result.fixed } : null;
    }
    // Without the grid (or after it refused), the claims still run on the core's own answers.
    if (!responses) responses = { buggy: core.inspect(config.buggy), fixed: core.inspect(config.fixed) };
    const context = { ...responses, buggyRequest: config.buggy, fixedRequest: config.fixed };
    showClaims(evaluateClaims(exercise.claims, responses.buggy, responses.fixed, { buggyRequest: config.buggy, fixedRequest: config.fixed }));
    onResponses(context);
  }

  return { run };
}
