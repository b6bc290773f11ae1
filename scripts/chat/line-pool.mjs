// line-pool.mjs — checks the lines of a file on worker threads and hands back the results in line
// order, with a time limit per line: a line still being checked after `limitMs` (a chat template
// that never finishes) gets the result `stopped(lineNo, why)` instead, its thread is replaced, and
// the lines that thread had not reached go to the new one. A thread that dies on a line (out of
// memory, say) is treated the same way. The Chat masks page stops a template the same way
// (web/chat/family-client.js).
//
//   const pool = linePool({ script, workerData, threads, limitMs, stopped, onResult });
//   await pool.check(lines);   // lines: an async iterable of [lineNo, text]; onResult(result) in line order
//
// The worker script calls answerLines(check) once it is set up: it says so ({ ready }), then
// answers each line of a { lines } message with { lineNo, result }, one message per line, so the
// pool knows which line a thread is on. Lines go out in chunks; at most WINDOW lines per thread
// are out or waiting to be handed back, so memory stays bounded on big files.

import { isMainThread, parentPort, Worker } from 'node:worker_threads';

export const CHUNK_LINES = 32;
const WINDOW = 4 * CHUNK_LINES;
const WATCH_EVERY_MS = 100;

/** In the worker script: answers the pool's lines with check(text, lineNo). */
export function answerLines(check) {
  if (isMainThread) throw new Error('answerLines runs in a worker thread');
  parentPort.on('message', ({ lines }) => {
    for (const [lineNo, text] of lines) parentPort.postMessage({ lineNo, result: check(text, lineNo) });
  });
  parentPort.postMessage({ ready: true });
}

export function linePool({ script, workerData, threads, limitMs, stopped, onResult }) {
  const done = new Map(); // lineNo -> result, until every line before it is handed back
  let next = 1; // the next line to hand back
  let failure = null; // an error that ends the check (a thread that cannot even start)
  let wake = () => {};

  const handBack = (lineNo, result) => {
    done.set(lineNo, result);
    while (done.has(next)) {
      onResult(done.get(next));
      done.delete(next);
      next += 1;
    }
    wake();
  };

  // A thread's `queue` holds the lines it was given and has not answered, in order: the first is
  // the one it is checking, since `since` (when it answered the one before, or became ready or
  // busy). A thread is not timed until it is ready: loading a tokenizer is not a line's time.
  const start = (slot) => {
    const thread = new Worker(script, { workerData });
    Object.assign(slot, { thread, ready: false });
    thread.on('message', (message) => {
      if (slot.thread !== thread) return;
      slot.since = performance.now();
      if (message.ready) {
        slot.ready = true;
        return;
      }
      slot.queue.shift();
      handBack(message.lineNo, message.result);
    });
    const died = (why) => {
      if (slot.thread !== thread) return;
      if (slot.ready && slot.queue.length) {
        replace(slot, why); // the line it was on is the cause
        return;
      }
      slot.thread = null;
      failure ??= new Error(slot.ready ? `a worker thread stopped: ${why}` : `a worker thread could not start: ${why}`);
      wake();
    };
    thread.on('error', (error) => died(error.message));
    thread.on('exit', (code) => died(`it stopped (exit code ${code})`));
  };

  const replace = (slot, why) => {
    const old = slot.thread;
    slot.thread = null;
    old.terminate();
    const [[lineNo]] = slot.queue.splice(0, 1);
    const rest = slot.queue;
    slot.queue = [];
    start(slot);
    if (rest.length) send(slot, rest);
    handBack(lineNo, stopped(lineNo, why));
  };

  const send = (slot, lines) => {
    if (slot.queue.length === 0) slot.since = performance.now();
    slot.queue.push(...lines);
    slot.thread.postMessage({ lines });
  };

  const slots = Array.from({ length: threads }, () => ({ queue: [], since: 0 }));
  slots.forEach(start);
  const watch = setInterval(() => {
    const now = performance.now();
    for (const slot of slots) {
      if (slot.thread && slot.ready && slot.queue.length && now - slot.since > limitMs) replace(slot, 'time');
    }
  }, WATCH_EVERY_MS);

  const waitFor = async (condition) => {
    while (!condition()) {
      if (failure) throw failure;
      await new Promise((resolve) => {
        wake = resolve;
      });
    }
    if (failure) throw failure;
  };
  const outstanding = () => slots.reduce((n, slot) => n + slot.queue.length, 0) + done.size;

  return {
    async check(lines) {
      let turn = 0;
      let last = 0;
      let chunk = [];
      const flush = async () => {
        send(slots[turn % slots.length], chunk);
        turn += 1;
        chunk = [];
        await waitFor(() => outstanding() < WINDOW * slots.length);
      };
      try {
        for await (const line of lines) {
          chunk.push(line);
          last = line[0];
          if (chunk.length === CHUNK_LINES) await flush();
        }
        if (chunk.length) await flush();
        await waitFor(() => next > last);
      } finally {
        clearInterval(watch);
        await Promise.all(
          slots.map((slot) => {
            const thread = slot.thread;
            slot.thread = null;
            return thread?.terminate();
          }),
        );
      }
    },
  };
}
