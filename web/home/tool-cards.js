// tool-cards.js — the home page's cards for the labs and the other ways in, one section per
// group, drawn from the site's page list (shared/site-pages.js): a page added there gets its
// card here with no change to this file.
//
//   renderToolCards(container);

import { h, replaceChildren } from '../shared/dom.js';
import { HOME_GROUPS, SITE_PAGES } from '../shared/site-pages.js';

export function renderToolCards(container, pages = SITE_PAGES, groups = HOME_GROUPS) {
  replaceChildren(
    container,
    groups
      .map((group) => ({ group, members: pages.filter((p) => p.group === group.id) }))
      .filter(({ members }) => members.length)
      .map(({ group, members }) =>
        h(
          'section',
          { class: 'panel tools', 'aria-labelledby': `group-${group.id}` },
          h('h2', { id: `group-${group.id}` }, group.title),
          group.intro ? h('p', {}, group.intro) : null,
          h(
            'ul',
            { class: 'cards' },
            members.map((p) => h('li', { class: 'card tool-card', dataset: { page: p.id } }, h('h3', {}, h('a', { href: p.href }, p.title ?? p.nav)), h('p', {}, p.blurb ?? ''))),
          ),
        ),
      ),
  );
}
