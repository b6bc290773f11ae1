// template-link.js — a pasted chat template kept with the page's link (URL parameter `tpl`):
//   z:<base64url of deflate-raw(text)>   the template itself, compressed, when that fits the link
//   h:<sha-256 of the text, 32 hex>      a longer one: the text stays in this browser's local
//                                        storage under that hash, and the link names it
//
//   const tpl = await templateToLink(text, storage);          // -> 'z:…' | 'h:…'
//   const { text, problem } = await templateFromLink(tpl, storage);
//
// A link opened where its `h:` template was never pasted gets `problem`, a sentence that says so
// (the page then uses the family's own template); a `z:` value that does not inflate gets one too.
// Storage may be null or refuse writes (private mode, a sandboxed iframe): the template is then
// only in the link, or, when too long for it, only on screen until the page is left.

import { packText, unpackText } from '../shared/packed-text.js';

export const MAX_LINK_TEMPLATE = 6000; // characters of the z: form; longer templates go to storage
export const MAX_TEMPLATE_CHARS = 200_000;
export const TPL_PATTERN = /^(z:[A-Za-z0-9_-]{1,6000}|h:[0-9a-f]{32})$/;
const STORAGE_PREFIX = 'masklab-chat-template:';

const TEXT = {
  missing:
    'This link uses a chat template that was pasted in another browser and kept there (it was too long for the link). ' +
    'It is not in this browser, so the family’s own template is shown; paste the template again to use it.',
  corrupt: 'URL parameter tpl does not hold a readable chat template; the family’s own template is shown.',
};

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('').slice(0, 32);
}

/** The `tpl` value for a template; long ones are written to `storage` under their hash. */
export async function templateToLink(text, storage) {
  const packed = await packText(text);
  if (packed.length <= MAX_LINK_TEMPLATE) return `z:${packed}`;
  const hash = await sha256Hex(text);
  try {
    storage?.setItem(STORAGE_PREFIX + hash, JSON.stringify({ text, saved: new Date().toISOString() }));
  } catch {
    // storage full or refused: the link still names the template, and this page keeps it on screen
  }
  return `h:${hash}`;
}

/** { text, problem }: the template a `tpl` value names, or null with a sentence saying why. */
export async function templateFromLink(tpl, storage) {
  if (!tpl) return { text: null, problem: null };
  if (tpl.startsWith('z:')) {
    try {
      return { text: await unpackText(tpl.slice(2), MAX_TEMPLATE_CHARS), problem: null };
    } catch {
      return { text: null, problem: TEXT.corrupt };
    }
  }
  let saved = null;
  try {
    saved = JSON.parse(storage?.getItem(STORAGE_PREFIX + tpl.slice(2)) ?? 'null');
  } catch {
    saved = null;
  }
  if (typeof saved?.text === 'string' && (await sha256Hex(saved.text)) === tpl.slice(2)) return { text: saved.text, problem: null };
  return { text: null, problem: TEXT.missing };
}
