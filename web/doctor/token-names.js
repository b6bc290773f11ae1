// token-names.js — the one optional dependency of the doctor page: turning ids back into token
// strings with a model family's real tokenizer, as the Chat masks page loads it.
//
//   const families = await tokenFamilies();          // [{ id, label }], [] when unavailable
//   const names = await loadTokenNames(id, onProgress); // -> { nameOf(ids) -> Promise<string[]>, vocabSize, info }
//
// The family list and loader belong to the chat page (web/chat/families.js, family-client.js); this
// page reaches them through one module of its own (family-source.js), imported lazily; when the
// loader cannot name ids, tokenFamilies() is empty and the page simply shows ids. What the loader must offer: load(family, onProgress) and
// tokenStrings(family, ids) -> Promise<string[]>; token-chips.js's visibleText, when present,
// draws whitespace the way the chat page does.

const chipModules = import.meta.glob('../chat/token-chips.js');

// The list and the client come from one import (family-source.js and the chunk it re-exports).
let sourcePromise = null;
function familySource() {
  sourcePromise ??= import('./family-source.js');
  return sourcePromise;
}

let clientPromise = null;
async function familyClient() {
  clientPromise ??= familySource().then((m) => (typeof m?.createFamilyClient === 'function' ? m.createFamilyClient() : null));
  return clientPromise;
}

export async function tokenFamilies() {
  const source = await familySource();
  if (!source) return [];
  const client = await familyClient().catch(() => null);
  if (!client || typeof client.tokenStrings !== 'function') return [];
  return Array.isArray(source.FAMILIES) ? source.FAMILIES.map((f) => ({ id: f.id, label: f.label })) : [];
}

export async function loadTokenNames(familyId, onProgress = () => {}) {
  const client = await familyClient();
  if (!client || typeof client.tokenStrings !== 'function') throw new Error('token names are not available in this build');
  const info = await client.load(familyId, onProgress);
  // vocabSize (ids 0..V-1): ids past it are not this family's, so the page does not ask for them.
  const vocabSize = Number.isInteger(info?.vocabSize) ? info.vocabSize : Infinity;
  // Whitespace made visible as on the Chat masks page (' ' -> '·', '\n' -> '↵', '' -> '∅'):
  // a token that is only spaces must not look like an empty cell.
  const loadChips = Object.values(chipModules)[0];
  const chips = loadChips ? await loadChips().catch(() => null) : null;
  const visible = typeof chips?.visibleText === 'function' ? chips.visibleText : (text) => text;
  return { nameOf: async (ids) => (await client.tokenStrings(familyId, ids)).map(visible), vocabSize, info };
}
