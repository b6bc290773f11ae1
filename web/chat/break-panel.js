// break-panel.js — "See it break" on the chat page: the same conversation labelled a wrong way
// and the right way, side by side, each computed by the core; for a chat exercise (?ex=<id>) its
// own two configurations and its claims, checked live.
//
//   const panel = createBreakPanel(container, { analyse, core, onScenario(id) {} });
//   panel.show({ family, messages, template, line, scenario, exercise });   // exercise: compiled JSON or null
//       line: a pasted line's { promptLength, kwargs } (its split and template arguments), or null

import { evaluateClaims } from '../shared/claims.js';
import { h, replaceChildren } from '../shared/dom.js';
import { BUILT_IN_SCENARIOS, scenarioSide } from './chat-scenario.js';
import { createTokenChips } from './token-chips.js';

export const BREAK_TEXT = {
  scenario: 'Wrong way to compare',
  exercise: (title) => `Exercise: ${title}`,
  back: 'Back to the exercise',
  trained: (n, total) => `${n} of ${total} tokens trained`,
  turns: (trained, total) => `${trained} of ${total} assistant turns trained`,
  noWarnings: 'No warnings.',
  failed: (message) => `This side could not be computed: ${message}`,
  claims: 'Claims, checked against these two answers now',
  holds: '✓ holds',
  fails: '✗ does not hold',
  wrong: 'Wrong',
  right: 'Right',
};

export function createBreakPanel(container, { analyse, core, onScenario = () => {} }) {
  const select = h('select', { id: 'break-select' }, Object.entries(BUILT_IN_SCENARIOS).map(([id, s]) => h('option', { value: id }, s.title)));
  select.addEventListener('change', () => onScenario(select.value));
  const chooser = h('div', { class: 'control' }, h('label', { for: 'break-select' }, BREAK_TEXT.scenario), select);
  const heading = h('p', { class: 'break-exercise', hidden: true });
  const columns = h('div', { class: 'break-columns' });
  const claims = h('div', { class: 'break-claims' });
  replaceChildren(container, chooser, heading, columns, claims);
  let version = 0;

  function column(kind, label) {
    const box = h('div', { class: 'chip-box' });
    const figures = h('p', { class: 'break-figures' });
    const warnings = h('ul', { class: 'break-warnings' });
    const col = h('section', { class: `break-column ${kind}`, 'aria-label': `${BREAK_TEXT[kind]}: ${label}` }, h('h3', {}, h('span', { class: 'tag' }, BREAK_TEXT[kind]), ' ', label), figures, box, warnings);
    const chips = createTokenChips(box, { label: `${BREAK_TEXT[kind]}: ${label}`, compact: true });
    return { col, chips, figures, warnings };
  }

  function fill(view, result) {
    if (result.error) {
      replaceChildren(view.figures, h('span', { class: 'error-box' }, BREAK_TEXT.failed(result.error)));
      return;
    }
    const { chat, answer } = result;
    const assistant = answer.turns.filter((t) => t.role === 'assistant' && t.tokens > 0);
    replaceChildren(
      view.figures,
      BREAK_TEXT.trained(answer.trained_tokens, answer.input_ids.length),
      ' · ',
      BREAK_TEXT.turns(assistant.filter((t) => t.trained > 0).length, assistant.length),
    );
    view.chips.update(chat, answer);
    const shown = answer.warnings.filter((w) => w.severity !== 'info');
    replaceChildren(
      view.warnings,
      shown.length ? shown.map((w) => h('li', { class: `warning ${w.severity}` }, h('code', {}, w.id), ' ', w.message)) : h('li', {}, BREAK_TEXT.noWarnings),
    );
  }

  async function side(family, messages, template, line, config) {
    try {
      const { options, policies } = scenarioSide(config);
      // Both sides render the conversation as the tokens above do: a pasted line's tools and
      // split included.
      const { chat, request } = await analyse(family, messages, { ...options, template, promptLength: line?.promptLength ?? null, kwargs: line?.kwargs ?? null }, policies);
      const answer = core.chat(request);
      if (answer.error) return { error: `${answer.error.field}: ${answer.error.message}` };
      return { chat, answer };
    } catch (error) {
      return { error: error.message };
    }
  }

  return {
    async show({ family, messages, template, line = null, scenario, exercise }) {
      version += 1;
      const mine = version;
      const config = exercise?.see_it_break?.kind === 'chat' ? exercise.see_it_break : null;
      const s = config
        ? { wrong: config.buggy, right: config.fixed, wrongLabel: config.buggy_label ?? BREAK_TEXT.wrong, rightLabel: config.fixed_label ?? BREAK_TEXT.right }
        : BUILT_IN_SCENARIOS[scenario];
      chooser.hidden = Boolean(config);
      heading.hidden = !config;
      if (config) {
        replaceChildren(heading, BREAK_TEXT.exercise(exercise.title), ' · ', h('a', { href: `./exercise.html?ex=${encodeURIComponent(exercise.id)}` }, BREAK_TEXT.back));
      } else select.value = scenario;
      const [wrong, right] = await Promise.all([side(family, messages, template, line, s.wrong), side(family, messages, template, line, s.right)]);
      if (mine !== version) return;
      const w = column('wrong', s.wrongLabel);
      const r = column('right', s.rightLabel);
      columns.replaceChildren(w.col, r.col);
      fill(w, wrong);
      fill(r, right);
      if (config && exercise.claims && wrong.answer && right.answer) {
        const results = evaluateClaims(exercise.claims, wrong.answer, right.answer, {});
        replaceChildren(
          claims,
          h('h3', {}, BREAK_TEXT.claims),
          h('ul', { class: 'claim-list' }, results.map((c) => h('li', { class: `claim ${c.ok ? 'ok' : 'failed'}` }, h('span', { class: 'claim-verdict' }, c.ok ? BREAK_TEXT.holds : BREAK_TEXT.fails), ' ', c.text))),
        );
      } else claims.replaceChildren();
    },
  };
}
