// packed-text.js — text made short enough for a link: deflate-raw, then base64url, with the
// browser's own CompressionStream (no library). The Chat masks page packs a pasted template
// (chat/template-link.js) and a long conversation (chat/chat-state.js) this way.
//
//   const packed = await packText(text);                 // base64url characters only
//   const text = await unpackText(packed, maxChars);     // throws when it is not packed text,
//                                                        // or unpacks to more than maxChars

function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i]);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

export async function packText(text) {
  return toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}

export async function unpackText(packed, maxChars = Infinity) {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(await pipe(fromBase64Url(packed), new DecompressionStream('deflate-raw')));
  if (text.length > maxChars) throw new Error(`unpacks to more than ${maxChars} characters`);
  return text;
}
