// Prints the Chat masks figures (issue 7's targets in brackets):
//   - the page's own code, gzip (≤ 150 KB), the wasm core, and the tokenizer files per family
//     (raw and gzip) as the site serves them;
//   - cold ready: navigation -> the default conversation rendered with its labels, in a new
//     browser context (no HTTP cache, no Cache Storage), tokenizer files included (≤ 1.5 s);
//     and warm ready, the same page again in the same context (files from Cache Storage);
//   - re-render after an edit of a ~2,000-token conversation: in node, render + tokenize + spans +
//     core (the part an edit costs, ≤ 30 ms); in the page, from a policy click to the new labels
//     on screen (worker round trip and drawing included);
//   - `npm run chat-masks` over 1,000 conversations of ~500 tokens (≤ 10 s).
// Figures only, no pass/fail: the machine may be shared. Not here: the other pages (pages.mjs).
//
//   node scripts/bench/chat.mjs        (scripts/bench.sh runs it; dist/ must be built)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { DIST, REPO_ROOT, launchChromium, startSite } from '../../tests/browser/helpers.mjs';
import { analyseChat } from '../../web/chat/chat-analysis.js';
import { chatRequest } from '../../web/chat/chat-request.js';
import { loadCore } from '../../web/core/masklab.js';
import { nodeFamily } from '../chat/node-family.mjs';

const COLD = 5;
const EDITS = 20;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;

function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const median = s[Math.floor(s.length / 2)];
  return `median ${median.toFixed(0)} ms (min ${s[0].toFixed(0)}, max ${s.at(-1).toFixed(0)}, n=${s.length})`;
}

// A conversation of about `tokens` tokens: alternating questions and answers of plain prose.
function longConversation(turns, sentence, repeat) {
  const messages = [{ role: 'system', content: 'You are a careful assistant for a data-engineering team.' }];
  for (let i = 0; i < turns; i += 1) {
    messages.push({ role: 'user', content: `Question ${i + 1}: ${sentence.repeat(repeat)}` });
    messages.push({ role: 'assistant', content: `Answer ${i + 1}: ${sentence.repeat(repeat)}` });
  }
  return messages;
}
const SENTENCE = 'The pipeline reads each shard, checks the schema, and writes the cleaned rows to the warehouse. ';

async function sizes() {
  const assets = readdirSync(join(DIST, 'assets'));
  const html = readFileSync(join(DIST, 'chat.html'));
  const own = [html];
  const linked = new Set([...html.toString().matchAll(/assets\/([\w.-]+\.(?:js|css))/g)].map((m) => m[1]));
  // The page's entry chunk imports others; follow static imports one level at a time.
  const queue = [...linked];
  while (queue.length) {
    const name = queue.shift();
    const text = readFileSync(join(DIST, 'assets', name), 'utf8');
    for (const m of text.matchAll(/["'](?:\.\/|\.\.\/assets\/)?([\w.-]+\.(?:js|css))["']/g)) {
      if (assets.includes(m[1]) && !linked.has(m[1])) {
        linked.add(m[1]);
        queue.push(m[1]);
      }
    }
  }
  const files = [...linked].filter((n) => !/\.wasm$/.test(n));
  let raw = html.length;
  let gz = gzipSync(html, { level: 9 }).length;
  const exerciseChunks = new Set(JSON.parse(readFileSync(join(REPO_ROOT, 'web', 'generated', 'content', 'index.json'), 'utf8')).map((e) => e.id));
  const counted = [];
  for (const name of files) {
    if (exerciseChunks.has(name.replace(/-[\w-]{8}\.js$/, ''))) continue; // lazily loaded, one per ?ex=
    const body = readFileSync(join(DIST, 'assets', name));
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
    counted.push(name);
  }
  const wasm = assets.find((n) => n.endsWith('.wasm'));
  const wasmBody = readFileSync(join(DIST, 'assets', wasm));
  console.log(`page code (chat.html + ${counted.length} JS/CSS files incl. the worker): ${kb(raw)} raw, ${kb(gz)} gzip  [target ≤ 150 KB gzip]`);
  console.log(`wasm core: ${kb(wasmBody.length)} raw, ${kb(gzipSync(wasmBody, { level: 9 }).length)} gzip`);
  const root = join(DIST, 'tokenizers');
  for (const folder of readdirSync(root).filter((n) => !n.endsWith('.json'))) {
    const t = readFileSync(join(root, folder, 'tokenizer.json'));
    const c = readFileSync(join(root, folder, 'tokenizer_config.json'));
    console.log(`  ${folder}: tokenizer.json ${mb(t.length)} raw, ${mb(gzipSync(t, { level: 6 }).length)} gzip; tokenizer_config.json ${kb(c.length)}`);
  }
}

async function pageTimes(browser, url) {
  const cold = [];
  const warm = [];
  for (let i = 0; i < COLD; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    for (const list of [cold, warm]) {
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.querySelector('#chips .chip'), null, { timeout: 120_000 });
      list.push(await page.evaluate(() => performance.now()));
      await page.close();
    }
    await context.close();
  }
  console.log(`cold ready (navigation -> default conversation labelled, Qwen3 files included): ${stats(cold)}  [target ≤ 1.5 s]`);
  console.log(`warm ready (same browser, files from Cache Storage): ${stats(warm)}`);
}

async function pageEdits(browser, url, conversation) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const c = encodeURIComponent(JSON.stringify(conversation.map((m) => [m.role, m.content])));
  await page.goto(`${url}?c=${c}`);
  await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.querySelector('#chips .chip'), null, { timeout: 120_000 });
  const tokens = await page.locator('#chips .chip').count();
  const times = [];
  for (let i = 0; i < EDITS; i += 1) {
    const ms = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const target = document.querySelector('#quick-summary');
          const before = target.textContent;
          const start = performance.now();
          const observer = new MutationObserver(() => {
            if (target.textContent !== before) {
              observer.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - start));
            }
          });
          observer.observe(target, { childList: true, characterData: true, subtree: true });
          const radio = document.querySelector('#t-last_assistant:checked') ? '#t-assistant' : '#t-last_assistant';
          document.querySelector(radio).click();
        }),
    );
    times.push(ms);
  }
  const draw = await page.evaluate(() => Number(document.body.dataset.drawMs));
  const analysis = await page.evaluate(() => Number(document.body.dataset.analysisMs));
  console.log(`in the page, policy click -> new labels drawn, ${tokens}-token conversation: ${stats(times)}; last one: worker analysis ${analysis} ms, drawing ${draw} ms`);
  await context.close();
}

function nodeEdits(core, conversation) {
  const fam = nodeFamily('qwen3');
  const times = [];
  let tokens = 0;
  for (let i = 0; i < EDITS + 3; i += 1) {
    const edited = conversation.map((m, k) => (k === conversation.length - 1 ? { ...m, content: `${m.content} (edit ${i})` } : m));
    const start = performance.now();
    const chat = analyseChat(fam, edited, {});
    const answer = core.chat(chatRequest(fam, chat, {}));
    if (i >= 3) times.push(performance.now() - start); // the first runs warm the BPE cache, as a page's first render does
    tokens = answer.input_ids.length;
  }
  console.log(`re-render after an edit (template + tokenize + spans + core, node, Qwen3), ${tokens} tokens: ${stats(times)}  [target ≤ 30 ms]`);
}

function cliRun() {
  const dir = mkdtempSync(join(tmpdir(), 'masklab-bench-'));
  try {
    const file = join(dir, 'sft.jsonl');
    const lines = [];
    for (let i = 0; i < 1000; i += 1) {
      const convo = longConversation(2, `Row ${i}. ${SENTENCE}`, 5);
      lines.push(JSON.stringify({ messages: convo }));
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
    const start = Date.now();
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'chat', 'chat-masks.mjs'), '--family', 'qwen3', '--quiet', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const wall = (Date.now() - start) / 1000;
    const summary = r.stdout.split('\n').find((l) => l.startsWith('chat-masks: 1000')) ?? r.stderr.slice(0, 300);
    console.log(`npm run chat-masks, 1,000 conversations: ${wall.toFixed(1)} s wall (tokenizer load included)  [target ≤ 10 s]`);
    console.log(`  ${summary}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (!statSync(join(DIST, 'chat.html'), { throwIfNoEntry: false })) throw new Error('dist/chat.html is missing: run npx vite build');
  console.log('\nmasklab chat page and chat-masks (the machine may be shared: figures vary with its load)');
  await sizes();
  const core = await loadCore({ wasmBinary: readFileSync(join(REPO_ROOT, 'web', 'generated', 'masklab_core.wasm')) });
  const conversation = longConversation(6, SENTENCE, 8);
  nodeEdits(core, conversation);
  cliRun();
  const site = await startSite();
  const browser = await launchChromium();
  try {
    await pageTimes(browser, `${site.url}chat.html`);
    await pageEdits(browser, `${site.url}chat.html`, conversation);
  } finally {
    await browser.close();
    await site.close();
  }
}

await main();
