// embed.js — the protocol between an embedded masklab widget (in an iframe) and its host page,
// and the one snippet a course author pastes to get both the iframe and its listener.
//
// Messages go to window.parent with targetOrigin '*', so any LMS, blog or slide deck can listen
// (H5P's same-origin limit is the complaint this answers). Every message is a plain object:
//   { source: 'masklab', type: 'ready',    widget, url }
//   { source: 'masklab', type: 'resize',   widget, height }            // content height in px
//   { source: 'masklab', type: 'answered', widget, exercise, score, maxScore, marked: [unit
//     indices], solution_shown, attempt }
//   { source: 'masklab', type: 'trained',  widget: 'train', bug, settings, final: { buggy, fixed } }
//   { source: 'masklab', type: 'xapi',     widget, statement }         // xapi.js: answered, completed
// `ready` and the first `resize` wait until the page has drawn its content (body[data-state]),
// so a host never sizes the frame to the loading line first. Nothing secret is sent: a score and
// the learner's marks. Nothing is received. The authors page documents this as a table.

import { escapeHtml } from './escape-html.js';

export const PROTOCOL_SOURCE = 'masklab';

// The frame is never sized outside these bounds by the snippet (a hostile or broken frame
// cannot make the host page 20,000 px tall or collapse it).
export const MIN_HEIGHT = 200;
export const MAX_HEIGHT = 40000;
// How long after its frame has loaded a snippet shows a page that never said "ready".
const SHOW_ANYWAY_MS = 3000;

export function isEmbedded() {
  const params = new URLSearchParams(globalThis.location?.search ?? '');
  if (params.get('embed') === '1') return true;
  try {
    return window.self !== window.top;
  } catch {
    return true; // cross-origin parent: we are framed
  }
}

export function postToHost(type, payload = {}) {
  if (window.parent === window) return;
  window.parent.postMessage({ source: PROTOCOL_SOURCE, type, ...payload }, '*');
}

// Resolves when the page has drawn its content: <body data-state="ready"> (or "error", which is
// content too: the learner should see it).
function whenDrawn() {
  return new Promise((resolve) => {
    if (document.body.dataset.state) return resolve();
    const observer = new MutationObserver(() => {
      if (!document.body.dataset.state) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
  });
}

// Posts `ready` once the page is drawn, then `resize` whenever the document's height changes.
export function startEmbedding(widget) {
  if (window.parent === window) return;
  let last = -1;
  let queued = false;
  const measure = () => {
    queued = false;
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      postToHost('resize', { widget, height });
    }
  };
  const queue = () => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(measure);
    }
  };
  whenDrawn().then(() => {
    postToHost('ready', { widget, url: location.href });
    new ResizeObserver(queue).observe(document.documentElement);
    queue();
  });
}

/**
 * The snippet a course author pastes: the iframe and a small script that sizes it to its content
 * and re-dispatches the frame's messages as a "masklab" DOM event on the iframe. It accepts a
 * message only from that iframe's window and from the masklab site's origin. `src` must be
 * absolute; `id` names the iframe (unique per snippet, so several embeds can share a page).
 * The frame stays invisible (its room kept) until the page inside has drawn itself and says
 * "ready": the host never shows it half-built, with the site's header it drops in embed mode, or
 * at its first height. A page that never says so is shown anyway, 3 s after the frame has loaded;
 * a host that strips the script shows the frame at once, at its starting height.
 * Example: embedSnippet('https://x.org/masklab/exercise.html?ex=double-shift&embed=1', 'masklab exercise', 900, 'masklab-exercise-k3x9')
 */
export function embedSnippet(src, title, height = 640, id = 'masklab-frame') {
  const origin = new URL(src).origin;
  const safeId = String(id).replace(/[^A-Za-z0-9_-]/g, '');
  return `<iframe id="${safeId}" src="${escapeHtml(src.replace(/"/g, '%22'))}" title="${escapeHtml(title)}"
        width="100%" height="${Number(height)}" style="border:0;max-width:100%" loading="lazy"></iframe>
<script>
  // masklab: show the frame once drawn, size it to its content; scores arrive as a "masklab"
  // event on the iframe.
  (function () {
    var frame = document.getElementById(${JSON.stringify(safeId)});
    // Hidden by this script, not by the tag: where a site strips scripts, the frame still shows.
    frame.style.visibility = 'hidden';
    var show = function () { frame.style.visibility = ''; };
    frame.addEventListener('load', function () { setTimeout(show, ${SHOW_ANYWAY_MS}); });
    window.addEventListener('message', function (event) {
      if (event.source !== frame.contentWindow || event.origin !== ${JSON.stringify(origin)}) return;
      var data = event.data;
      if (!data || data.source !== 'masklab') return;
      show();
      if (data.type === 'resize' && isFinite(data.height)) {
        frame.height = String(Math.min(${MAX_HEIGHT}, Math.max(${MIN_HEIGHT}, Math.ceil(data.height))));
      }
      frame.dispatchEvent(new CustomEvent('masklab', { detail: data }));
    });
  })();
</script>`;
}
