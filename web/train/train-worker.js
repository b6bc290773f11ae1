// train-worker.js — one training run (buggy or fixed) in a Web Worker, so the page never waits
// for a step. The Train page starts two of these, one per run; on two cores they train at once.
//
// Messages in (from trainer.js):
//   { type: 'start', settings, run: 'buggy' | 'fixed', id }   start a new run (any old one ends)
//   { type: 'pause', id } / { type: 'resume', id } / { type: 'stop', id }
// Messages out (typed arrays are transferred, not copied and never JSON):
//   { type: 'started',  id, run, info: the core's answer to start() (steps, log_every, vocab,
//                       parameters, layers, width, heads, context, batch_rows, max_new_tokens) }
//   { type: 'progress', id, run, stepsDone, lines: Float64Array [step, train_loss, real_loss,
//                       eval_loss, eos_prob_at_end] × k, msPerStep }
//   { type: 'batch',    id, run, batch: { B, T, input_ids, attention_mask, labels, position_ids,
//                       weights: { groups, targets, weights } } }   (step 1)
//   { type: 'done',     id, run, samples: { prompts, completions, promptLengths, … } }
//   { type: 'error',    id, run, error: { field, message } }
//
// The work is cut into chunks of about CHUNK_MS so a pause or stop is answered within one chunk.
// Every number comes from the core (masklab_train.wasm); this file only schedules and forwards.

import createMasklabTrain from '../generated/masklab_train.mjs';

const CHUNK_MS = 30;
// Progress without a new logged line is posted at most this often: the page has nothing new to
// draw but the step counter, and fewer messages leave the main thread more idle time.
const QUIET_POST_MS = 150;

let modulePromise = null;
let current = null; // { id, run, paused, steps }

function post(message, transfer = []) {
  self.postMessage(message, transfer);
}

function fail(id, run, field, message) {
  post({ type: 'error', id, run, error: { field, message } });
}

function loadModule() {
  modulePromise ??= createMasklabTrain().catch((cause) => {
    modulePromise = null;
    throw cause;
  });
  return modulePromise;
}

// Lets queued messages (pause, stop) run between chunks.
function yieldToMessages() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function train(job, core) {
  let stepsPerChunk = 1;
  let lastPost = 0;
  while (current === job && !job.paused) {
    const started = performance.now();
    const result = core.advance(stepsPerChunk);
    const elapsed = performance.now() - started;
    if (result.error) {
      fail(job.id, job.run, result.error.field, result.error.message);
      current = null;
      return;
    }
    const msPerStep = elapsed / stepsPerChunk;
    const finished = result.stepsDone >= job.steps;
    if (result.lines.length || finished || !job.sentBatch || performance.now() - lastPost >= QUIET_POST_MS) {
      post({ type: 'progress', id: job.id, run: job.run, stepsDone: result.stepsDone, lines: result.lines, msPerStep }, [
        result.lines.buffer,
      ]);
      lastPost = performance.now();
    }
    // Step 1's batch, once per run: a resume calls train() again, and the two runs pause at
    // different steps, so a batch sent after resuming would pair different steps in the table.
    if (!job.sentBatch) {
      const batch = core.lastBatch();
      post({ type: 'batch', id: job.id, run: job.run, batch }, [
        batch.input_ids.buffer,
        batch.attention_mask.buffer,
        batch.labels.buffer,
        batch.position_ids.buffer,
        batch.weights.targets.buffer,
        batch.weights.weights.buffer,
      ]);
      job.sentBatch = true;
    }
    if (finished) {
      const samples = core.samples();
      if (samples.error) fail(job.id, job.run, samples.error.field, samples.error.message);
      else {
        const buffers = Object.values(samples).map((array) => array.buffer);
        post({ type: 'done', id: job.id, run: job.run, samples }, buffers);
      }
      current = null;
      return;
    }
    // Aim each chunk at CHUNK_MS; the first steps run before the engine has optimised the code.
    stepsPerChunk = Math.max(1, Math.min(64, Math.round(CHUNK_MS / Math.max(msPerStep, 0.1))));
    await yieldToMessages();
    if (current === job && job.paused) {
      // Say exactly where the run stopped, even if the last chunk's progress was not posted.
      post({ type: 'progress', id: job.id, run: job.run, stepsDone: result.stepsDone, lines: new Float64Array(0), msPerStep });
    }
  }
}

self.onmessage = async ({ data }) => {
  const { type, id } = data;
  if (type === 'start') {
    current = null; // any earlier run stops at its next chunk boundary
    const job = { id, run: data.run, paused: false, steps: 0, sentBatch: false };
    let core;
    try {
      core = await loadModule();
    } catch (cause) {
      fail(id, data.run, 'module', `the training module could not be loaded: ${cause?.message ?? cause}`);
      return;
    }
    const answer = JSON.parse(core.start(JSON.stringify(data.settings), data.run));
    if (answer.error) {
      fail(id, data.run, answer.error.field, answer.error.message);
      return;
    }
    job.steps = answer.steps;
    current = job;
    post({ type: 'started', id, run: data.run, info: answer });
    train(job, core);
  } else if (current && current.id === id) {
    if (type === 'pause') current.paused = true;
    else if (type === 'stop') current = null;
    else if (type === 'resume' && current.paused) {
      current.paused = false;
      train(current, await loadModule());
    }
  }
};
