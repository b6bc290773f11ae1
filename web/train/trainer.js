// trainer.js — the page's side of training: two Web Workers (train-worker.js), one for the buggy
// run and one for the fixed run, started, paused, resumed and reset together.
//
//   const trainer = createTrainer({ onStarted, onProgress, onBatch, onDone, onError });
//   trainer.start(settings);  trainer.pause();  trainer.resume();  trainer.reset();
//
// Each callback gets (run, payload) with run 'buggy' or 'fixed'; payloads are the workers'
// messages (typed arrays included). Messages of an earlier start (after a reset or a new start)
// are dropped by their id, so a late chunk can never land on a fresh chart. The workers are made
// on the first start and kept, so the wasm module is compiled once per page.

export const RUNS = ['buggy', 'fixed'];

export function createTrainer(handlers) {
  let workers = null;
  let id = 0;

  function dispatch(run, { data }) {
    if (data.id !== id) return;
    const handler = {
      started: handlers.onStarted,
      progress: handlers.onProgress,
      batch: handlers.onBatch,
      done: handlers.onDone,
      error: handlers.onError,
    }[data.type];
    handler?.(run, data);
  }

  function ensureWorkers() {
    if (workers) return workers;
    workers = {};
    for (const run of RUNS) {
      const worker = new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module', name: `masklab ${run} run` });
      worker.addEventListener('message', (event) => dispatch(run, event));
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        handlers.onError?.(run, { error: { field: 'worker', message: event.message || 'the training worker failed to start' } });
      });
      workers[run] = worker;
    }
    return workers;
  }

  function send(type) {
    if (!workers) return;
    for (const run of RUNS) workers[run].postMessage({ type, id });
  }

  return {
    start(settings) {
      id += 1;
      try {
        ensureWorkers();
      } catch (cause) {
        // A browser without module workers: say so instead of failing silently.
        workers = null;
        handlers.onError?.('buggy', { error: { field: 'worker', message: `this browser cannot start the training worker: ${cause?.message ?? cause}` } });
        return;
      }
      for (const run of RUNS) workers[run].postMessage({ type: 'start', id, run, settings });
    },
    pause: () => send('pause'),
    resume: () => send('resume'),
    reset() {
      send('stop');
      id += 1;
    },
  };
}
