// checks.js — which of the doctor's checks ran and which could not, with what each needs
// (answer.checks_run, answer.checks_skipped), so a clean verdict says what it rests on.
//
//   renderChecks(container, answer)

import { h, replaceChildren } from '../shared/dom.js';

// Every user-visible string of the checks panel, in one place.
export const CHECKS_TEXT = {
  ran: (n) => `Ran (${n})`,
  skipped: (n) => `Could not run (${n})`,
  needs: 'needs',
  none: 'none',
};

export function renderChecks(container, answer) {
  replaceChildren(
    container,
    h(
      'div',
      { class: 'checks-columns' },
      h(
        'section',
        { 'aria-labelledby': 'checks-ran' },
        h('h3', { id: 'checks-ran' }, CHECKS_TEXT.ran(answer.checks_run.length)),
        answer.checks_run.length
          ? h('ul', { class: 'check-list' }, answer.checks_run.map((id) => h('li', {}, h('code', {}, id))))
          : h('p', {}, CHECKS_TEXT.none),
      ),
      h(
        'section',
        { 'aria-labelledby': 'checks-skipped' },
        h('h3', { id: 'checks-skipped' }, CHECKS_TEXT.skipped(answer.checks_skipped.length)),
        answer.checks_skipped.length
          ? h(
              'ul',
              { class: 'check-list' },
              answer.checks_skipped.map((s) => h('li', {}, h('code', {}, s.id), ` — ${CHECKS_TEXT.needs} ${s.needs}`)),
            )
          : h('p', {}, CHECKS_TEXT.none),
      ),
    ),
  );
}
