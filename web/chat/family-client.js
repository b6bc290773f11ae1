// family-client.js — the page's side of chat-worker.js: load a family (with progress), analyse
// conversations, one promise per request. The worker is started on first use.
//
//   const client = createFamilyClient({ base: document.baseURI });
//   const info = await client.load('qwen3', ({ loaded, total, cached, building }) => …);
//   const { chat, request, ms } = await client.analyse('qwen3', messages, options, policies);
//   // a rejected analyse carries error.kind ('message' | 'template' | 'render' | 'tokenize') and error.messageIndex
//   const strings = await client.tokenStrings('qwen3', [9707, 151645]);   // each id decoded on its own
//
// The manifest (tokenizers/manifest.json, written by scripts/chat/stage-tokenizers.mjs) gives the
// files' sizes, so the progress bar knows its total before the first byte arrives.

export function createFamilyClient({ base = document.baseURI } = {}) {
  let worker = null;
  let manifest = null;
  let seq = 0;
  const pending = new Map(); // seq -> { resolve, reject }
  const loads = new Map(); // family -> { promise, listeners }

  function start() {
    if (worker) return worker;
    worker = new Worker(new URL('./chat-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.type === 'progress') loads.get(data.family)?.listeners.forEach((fn) => fn(data));
      else if (data.type === 'loaded') loads.get(data.family)?.resolve(data.info);
      else if (data.type === 'load-failed') {
        const load = loads.get(data.family);
        loads.delete(data.family);
        load?.reject(new Error(data.message));
      } else if (data.type === 'analysed' || data.type === 'tokens' || data.type === 'failed') {
        const p = pending.get(data.seq);
        pending.delete(data.seq);
        if (!p) return;
        if (data.type === 'tokens') p.resolve(data.strings);
        else if (data.type === 'analysed') p.resolve(data);
        else p.reject(Object.assign(new Error(data.error.message), data.error));
      }
    };
    worker.onerror = (event) => {
      const error = new Error(`the tokenizer worker stopped: ${event.message ?? 'unknown error'}`);
      for (const load of loads.values()) load.reject(error);
      loads.clear();
      for (const p of pending.values()) p.reject(Object.assign(error, { kind: 'internal' }));
      pending.clear();
      worker = null;
    };
    return worker;
  }

  // The files' sizes (tokenizers/manifest.json) only make the progress bar's total known before
  // the first byte; the download does not wait for them (the transfer's own length is used).
  async function files(family) {
    manifest ??= fetch(new URL('tokenizers/manifest.json', base)).then((r) => {
      if (!r.ok) throw new Error(`tokenizers/manifest.json: HTTP ${r.status}`);
      return r.json();
    });
    try {
      return (await manifest).find((e) => e.id === family)?.files ?? {};
    } catch {
      manifest = null;
      return {};
    }
  }

  return {
    load(family, onProgress = () => {}) {
      let load = loads.get(family);
      if (!load) {
        load = { listeners: new Set() };
        load.promise = new Promise((resolve, reject) => Object.assign(load, { resolve, reject }));
        loads.set(family, load);
        start().postMessage({ type: 'load', family, base });
        files(family).then((sizes) => worker?.postMessage({ type: 'sizes', family, files: sizes }));
      }
      load.listeners.add(onProgress);
      return load.promise.finally(() => load.listeners.delete(onProgress));
    },
    // For the batch doctor: a loaded family's token strings for ids (load the family first).
    tokenStrings(family, ids) {
      seq += 1;
      const id = seq;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        start().postMessage({ type: 'tokens', seq: id, family, ids });
      });
    },
    analyse(family, messages, options, policies) {
      seq += 1;
      const id = seq;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        start().postMessage({ type: 'analyse', seq: id, family, messages, options, policies });
      });
    },
  };
}
