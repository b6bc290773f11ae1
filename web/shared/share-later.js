// share-later.js — the "Use this elsewhere" panel (embed-panel.js), loaded and drawn when the
// bottom of the page comes near the screen: it is the last thing on every page, and a first
// visit should not pay for it. Inside an embed it is hidden at once (the host has the code).
//
//   renderEmbedPanelLater(section, { page: 'grid.html', title: 'masklab token grid', height: 900 });

import { isEmbedded } from './embed.js';
import { renderLater } from './later.js';

export function renderEmbedPanelLater(section, options) {
  if (isEmbedded()) {
    section.hidden = true;
    return;
  }
  renderLater(section, () => import('./embed-panel.js').then(({ renderEmbedPanel }) => renderEmbedPanel(section, options)), { until: 'visible' });
}
