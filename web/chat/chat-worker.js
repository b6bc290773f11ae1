// chat-worker.js — the Chat masks page's Web Worker: downloads a family's tokenizer files (with
// progress, kept in Cache Storage after the first load), builds the tokenizer (seconds for the
// largest vocabularies: never on the page's main thread), and renders, tokenizes and cuts
// conversations with the shared modules (chat-analysis.js, chat-request.js).
//
// Messages in:  { type: 'load', family, base }
//               { type: 'sizes', family, files }                  files: { name: bytes } from manifest.json
//               { type: 'analyse', seq, family, messages, options, policies }
//               { type: 'tokens', seq, family, ids }                  (the batch doctor's token strings)
// Messages out: { type: 'progress', family, loaded, total, cached }
//               { type: 'loaded', family, info } | { type: 'load-failed', family, message }
//               { type: 'started', seq }                              an analysis begins (the page's clock starts)
//               { type: 'analysed', seq, chat, request, ms } | { type: 'failed', seq, error: { kind, messageIndex, message } }
//               { type: 'tokens', seq, strings }                      each id decoded on its own
// Not here: the core (the page calls it on its main thread) or any DOM.

import { analyseChat } from './chat-analysis.js';
import { createChatFamily } from './chat-family.js';
import { chatRequest, padTokenOf } from './chat-request.js';
import { familyById, familyFolder } from './families.js';

const CACHE_NAME = 'masklab-tokenizers-v1';
const families = new Map(); // id -> Promise<fam>

async function openCache() {
  try {
    return typeof caches === 'undefined' ? null : await caches.open(CACHE_NAME);
  } catch {
    return null; // storage refused (private mode, sandboxed iframe): load from the network each time
  }
}

// Downloads with progress events. XMLHttpRequest rather than a streamed fetch: Chromium reports a
// worker's fetch whose body is read as a stream as aborted (net::ERR_ABORTED) once it completes,
// which would look like a failed request to anyone watching the network.
function download(url, total, onBytes) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    xhr.onprogress = (event) => onBytes(event.loaded, Math.max(total, event.lengthComputable ? event.total : 0, event.loaded));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(new Uint8Array(xhr.response));
      else reject(new Error(`${url.split('/').slice(-2).join('/')}: HTTP ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error(`${url.split('/').slice(-2).join('/')}: the download failed`));
    xhr.send();
  });
}

async function fetchJson(url, total, onBytes) {
  const cache = await openCache();
  const hit = cache ? await cache.match(url) : null;
  if (hit) {
    const bytes = new Uint8Array(await hit.arrayBuffer());
    onBytes(bytes.length, bytes.length, true);
    return JSON.parse(new TextDecoder().decode(bytes));
  }
  const bytes = await download(url, total, onBytes);
  // Stored for the next visit while this one goes on: building the tokenizer never waits for the disk.
  if (cache) cache.put(url, new Response(bytes.slice(), { headers: { 'content-type': 'application/json' } })).catch(() => {});
  return JSON.parse(new TextDecoder().decode(bytes));
}

const sizes = new Map(); // family -> { name: bytes }, from the page's manifest when it arrives

async function loadFamily({ family: id, base }) {
  const family = familyById(id);
  const folder = new URL(`tokenizers/${familyFolder(family)}/`, base);
  const names = ['tokenizer_config.json', 'tokenizer.json'];
  const seen = Object.fromEntries(names.map((n) => [n, 0]));
  const size = Object.fromEntries(names.map((n) => [n, 0]));
  const total = () => names.reduce((s, n) => s + Math.max(size[n], sizes.get(id)?.[n] ?? 0, seen[n]), 0);
  let cached = true;
  const progress = (name) => (loaded, length, fromCache = false) => {
    seen[name] = loaded;
    size[name] = length;
    cached = cached && fromCache;
    postMessage({ type: 'progress', family: id, loaded: seen['tokenizer.json'] + seen['tokenizer_config.json'], total: total(), cached });
  };
  const [tokenizerConfig, tokenizerJson] = await Promise.all(names.map((n) => fetchJson(new URL(n, folder).href, 0, progress(n))));
  postMessage({ type: 'progress', family: id, loaded: total(), total: total(), cached, building: true });
  return createChatFamily(family, { tokenizerJson, tokenizerConfig });
}

function describe(fam) {
  const family = fam.family;
  return {
    label: family.label,
    specials: fam.specials,
    template: fam.template,
    vocabSize: fam.vocabSize,
    eosChoices: family.eosChoices.map((c) => ({ ...c, id: fam.tokenId(c.token) })),
    pad: padTokenOf(fam, { pad: 'tokenizer', eosToken: null }),
    bosId: fam.tokenId(fam.specials.bos_token),
  };
}

function analyse(fam, { messages, options, policies }) {
  const started = performance.now();
  const chat = analyseChat(fam, messages, { ...options, generationPrompt: policies.target === 'response_template', turnByTurn: policies.target === 'turn_by_turn' });
  const request = chatRequest(fam, chat, policies);
  // The page draws from display strings and spans; offsets and vocabulary strings stay here
  // (structured-cloning [T][2] arrays is most of a large conversation's round trip).
  const { offsets: _o, charSpans: _c, tokens: _t, turnMask: _m, ...forPage } = chat;
  return { chat: forPage, request, ms: performance.now() - started };
}

self.onmessage = async ({ data }) => {
  if (data.type === 'sizes') {
    sizes.set(data.family, data.files);
    return;
  }
  if (data.type === 'load') {
    if (!families.has(data.family)) families.set(data.family, loadFamily(data));
    try {
      const fam = await families.get(data.family);
      postMessage({ type: 'loaded', family: data.family, info: describe(fam) });
    } catch (error) {
      families.delete(data.family);
      postMessage({ type: 'load-failed', family: data.family, message: error.message });
    }
    return;
  }
  if (data.type === 'tokens') {
    try {
      const fam = await families.get(data.family);
      if (!fam) throw Object.assign(new Error('the family is not loaded'), { kind: 'load' });
      const strings = data.ids.map((id) => fam.tokenizer.decode([id], { skip_special_tokens: false }));
      postMessage({ type: 'tokens', seq: data.seq, strings });
    } catch (error) {
      postMessage({ type: 'failed', seq: data.seq, error: { kind: error.kind ?? 'internal', messageIndex: null, message: error.message } });
    }
    return;
  }
  if (data.type === 'analyse') {
    try {
      const fam = await families.get(data.family);
      if (!fam) throw Object.assign(new Error('the family is not loaded'), { kind: 'load' });
      // From here the work is synchronous and cannot be interrupted: the page times it from this
      // message, not from its request (which may have waited for a family's download).
      postMessage({ type: 'started', seq: data.seq });
      postMessage({ type: 'analysed', seq: data.seq, ...analyse(fam, data) });
    } catch (error) {
      postMessage({ type: 'failed', seq: data.seq, error: { kind: error.kind ?? 'internal', messageIndex: error.messageIndex ?? null, message: error.message } });
    }
  }
};
