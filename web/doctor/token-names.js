// token-names.js — the one optional dependency of the doctor page: turning ids back into token
// strings with a model family's real tokenizer, as the Chat masks page loads it.
//
//   const families = await tokenFamilies();          // [{ id, label }], [] when unavailable
//   const names = await loadTokenNames(id, onProgress); // -> { nameOf(ids) -> Promise<string[]> }
//
// The family list and loader belong to the chat page (web/chat/families.js, family-client.js).
// They are looked up lazily, with import.meta.glob, so this page builds and works without them:
// when they are absent — or the loader cannot name ids yet — tokenFamilies() is empty and the
// page simply shows ids. What the loader must offer: load(family, onProgress) and
// tokenStrings(family, ids) -> Promise<string[]>.

const familyModules = import.meta.glob('../chat/families.js');
const clientModules = import.meta.glob('../chat/family-client.js');

let clientPromise = null;
async function familyClient() {
  const load = Object.values(clientModules)[0];
  if (!load) return null;
  clientPromise ??= load().then((m) => (typeof m.createFamilyClient === 'function' ? m.createFamilyClient() : null));
  return clientPromise;
}

export async function tokenFamilies() {
  const loadList = Object.values(familyModules)[0];
  if (!loadList) return [];
  const client = await familyClient().catch(() => null);
  if (!client || typeof client.tokenStrings !== 'function') return [];
  const { FAMILIES } = await loadList();
  return Array.isArray(FAMILIES) ? FAMILIES.map((f) => ({ id: f.id, label: f.label })) : [];
}

export async function loadTokenNames(familyId, onProgress = () => {}) {
  const client = await familyClient();
  if (!client || typeof client.tokenStrings !== 'function') throw new Error('token names are not available in this build');
  await client.load(familyId, onProgress);
  return { nameOf: (ids) => client.tokenStrings(familyId, ids) };
}
