// dom.js — build DOM nodes without HTML strings.
//
//   h('p', { class: 'note' }, 'Loss is ', h('strong', {}, '0.51'))
//
// Children that are strings become text nodes, so nothing a learner pastes (or a URL carries)
// can ever be parsed as HTML. Attributes starting with "on" take functions (event listeners).
// Not a framework: no diffing, no state. Widgets rebuild what changed.

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Replaces all children of `node`.
export function replaceChildren(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

// A visually hidden live region for announcements to screen readers.
export function liveRegion(politeness = 'polite') {
  return h('div', { class: 'visually-hidden', 'aria-live': politeness, role: politeness === 'assertive' ? 'alert' : 'status' });
}
