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
//
// A template can run for as good as ever (two nested loops over range(100000), a macro that
// calls itself), and a worker cannot be interrupted. (A single range(10**9) is not one: building
// that list fails at once, "Invalid array length".) So an analysis that has run for
// `analyseLimitMs` fails (kind 'render'), and so do the waiting ones with the same template; the
// worker is stopped, and a new one takes over: it loads the same families again (from Cache
// Storage) and gets the other requests that were still waiting.

export const ANALYSE_LIMIT_MS = 10_000;

export function createFamilyClient({ base = document.baseURI, analyseLimitMs = ANALYSE_LIMIT_MS } = {}) {
  let worker = null;
  let manifest = null;
  let seq = 0;
  const pending = new Map(); // seq -> { resolve, reject, message }
  const loads = new Map(); // family -> { promise, listeners }
  let running = null; // { seq, timer }: the analysis the worker is working on

  function stopClock(id) {
    if (!running || running.seq !== id) return;
    clearTimeout(running.timer);
    running = null;
  }

  function tooLong(id) {
    running = null;
    const p = pending.get(id);
    pending.delete(id);
    worker.terminate();
    worker = null;
    const seconds = Math.round(analyseLimitMs / 1000);
    const error = Object.assign(new Error(`the template was still rendering after ${seconds} s, so it was stopped (a loop over a huge range, or a macro that calls itself, never ends)`), { kind: 'render', messageIndex: null });
    p?.reject(error);
    // Analyses still waiting with the same template would only run as long again: they fail too.
    // The others (the learner went back to the family's template, say) go to the new worker.
    for (const [k, waiting] of pending) {
      if (waiting.message.type === 'analyse' && waiting.message.options?.template === p?.message.options?.template) {
        pending.delete(k);
        waiting.reject(error);
      }
    }
    if (loads.size === 0 && pending.size === 0) return;
    const next = start();
    for (const family of loads.keys()) next.postMessage({ type: 'load', family, base });
    for (const waiting of pending.values()) next.postMessage(waiting.message);
  }

  function send(message) {
    return new Promise((resolve, reject) => {
      pending.set(message.seq, { resolve, reject, message });
      start().postMessage(message);
    });
  }

  function start() {
    if (worker) return worker;
    worker = new Worker(new URL('./chat-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      if (data.type === 'started') {
        stopClock(running?.seq);
        running = { seq: data.seq, timer: setTimeout(() => tooLong(data.seq), analyseLimitMs) };
      } else if (data.type === 'progress') loads.get(data.family)?.listeners.forEach((fn) => fn(data));
      else if (data.type === 'loaded') loads.get(data.family)?.resolve(data.info);
      else if (data.type === 'load-failed') {
        const load = loads.get(data.family);
        loads.delete(data.family);
        load?.reject(new Error(data.message));
      } else if (data.type === 'analysed' || data.type === 'tokens' || data.type === 'failed') {
        stopClock(data.seq);
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
      stopClock(running?.seq);
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
      return send({ type: 'tokens', seq, family, ids });
    },
    analyse(family, messages, options, policies) {
      seq += 1;
      return send({ type: 'analyse', seq, family, messages, options, policies });
    },
  };
}
