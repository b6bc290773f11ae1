// embed.js — the protocol between an embedded masklab widget (in an iframe) and its host page.
//
// Messages go to window.parent with targetOrigin '*', so any LMS, blog or slide deck can listen
// (H5P's same-origin limit is the complaint this answers). Every message is a plain object:
//   { source: 'masklab', type: 'ready',    widget, url }
//   { source: 'masklab', type: 'resize',   widget, height }            // content height in px
//   { source: 'masklab', type: 'answered', widget, exercise, score, maxScore, marked: [unit indices] }
//   { source: 'masklab', type: 'trained',  widget: 'train', bug, settings, final: { buggy, fixed } }
// Nothing secret is sent: a score and the learner's marks. Nothing is received.

export const PROTOCOL_SOURCE = 'masklab';

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

// Posts `ready` once, then `resize` whenever the document's height changes.
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
  new ResizeObserver(queue).observe(document.documentElement);
  postToHost('ready', { widget, url: location.href });
  queue();
}

// The iframe snippet a course author pastes. `src` must be absolute.
export function embedCode(src, title, height = 640) {
  const safeTitle = title.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]);
  const safeSrc = src.replace(/"/g, '%22');
  return `<iframe src="${safeSrc}" title="${safeTitle}" width="100%" height="${height}" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}
