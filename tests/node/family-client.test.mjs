// family-client.js: the chat page's side of its tokenizer worker. What is pinned here is what
// happens when an analysis never ends (a template that loops): it fails after the time limit,
// the worker is replaced, the families are loaded again, and the requests still waiting are
// answered by the new worker — except those with the same template, which fail the same way.
// A fake Worker stands in for chat-worker.js and speaks its protocol.

import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';

import { createFamilyClient } from '../../web/chat/family-client.js';

const LOOP = '{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}';
const workers = [];

class FakeWorker {
  constructor(url) {
    this.url = String(url);
    this.sent = [];
    this.terminated = false;
    this.busy = false; // a looping template holds the worker's only thread: nothing after it runs
    this.loadMs = 0;
    this.queue = Promise.resolve();
    workers.push(this);
  }
  reply(data) {
    if (!this.terminated) this.onmessage?.({ data });
  }
  // As chat-worker.js: one message at a time; an analysis says 'started' once its family is
  // there, then answers, unless its template never finishes.
  postMessage(message) {
    this.sent.push(message);
    this.queue = this.queue.then(async () => {
      if (this.busy || this.terminated) return;
      if (message.type === 'load') {
        await new Promise((r) => setTimeout(r, this.loadMs));
        this.reply({ type: 'loaded', family: message.family, info: { label: message.family } });
      }
      if (message.type === 'analyse') {
        this.reply({ type: 'started', seq: message.seq });
        if (message.options.template === LOOP) this.busy = true;
        else this.reply({ type: 'analysed', seq: message.seq, chat: {}, request: { worker: workers.indexOf(this) }, ms: 1 });
      }
    });
  }
  terminate() {
    this.terminated = true;
  }
}

let saved;
beforeEach(() => {
  workers.length = 0;
  saved = { Worker: globalThis.Worker, fetch: globalThis.fetch };
  globalThis.Worker = FakeWorker;
  globalThis.fetch = () => Promise.reject(new Error('no network in this test')); // the manifest: optional
});
afterEach(() => {
  globalThis.Worker = saved.Worker;
  globalThis.fetch = saved.fetch;
});

const options = (template) => ({ addSpecialTokens: false, eosToken: null, template });

test('an analysis that never ends fails after the limit; the new worker reloads the family and answers the others', async () => {
  const client = createFamilyClient({ base: 'http://site.test/', analyseLimitMs: 60 });
  await client.load('qwen3');
  const looping = client.analyse('qwen3', [], options(LOOP), {});
  const sameTemplate = client.analyse('qwen3', [], options(LOOP), {});
  const shipped = client.analyse('qwen3', [], options(null), {});

  const started = Date.now();
  await assert.rejects(looping, (error) => {
    assert.equal(error.kind, 'render');
    assert.equal(error.messageIndex, null);
    assert.match(error.message, /still rendering after 0 s, so it was stopped/);
    return true;
  });
  assert.ok(Date.now() - started >= 50, 'not before the limit');
  await assert.rejects(sameTemplate, /still rendering/, 'a waiting analysis with the same template fails too');

  // The stuck worker was stopped; the new one loaded qwen3 again and answered the shipped template.
  assert.equal(workers.length, 2);
  assert.equal(workers[0].terminated, true);
  assert.deepEqual(workers[1].sent.map((m) => m.type), ['load', 'analyse']);
  assert.equal(workers[1].sent[0].family, 'qwen3');
  assert.deepEqual((await shipped).request, { worker: 1 });

  // And the client goes on working with it.
  assert.deepEqual((await client.analyse('qwen3', [], options(null), {})).request, { worker: 1 });
  assert.equal(workers.length, 2);
});

test('the limit counts from the start of the analysis, not from the request: a slow family load is not a loop', async () => {
  const client = createFamilyClient({ base: 'http://site.test/', analyseLimitMs: 40 });
  // The first worker is created by load(); make its family take longer than the limit to arrive.
  const loading = client.load('gemma3');
  workers[0].loadMs = 120; // read when the worker takes the message up, after this line
  const answer = await client.analyse('gemma3', [], options(null), {});
  await loading;
  assert.deepEqual(answer.request, { worker: 0 });
  assert.equal(workers.length, 1);
  assert.equal(workers[0].terminated, false);
});
