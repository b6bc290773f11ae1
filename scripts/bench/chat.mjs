// Prints the Chat masks figures (issue 7's targets in brackets):
//   - the page's own code, gzip (≤ 150 KB), the wasm core, and the tokenizer files per family
//     (raw and gzip) as the site serves them;
//   - cold ready: navigation -> the default conversation rendered with its labels, in a new
//     browser context (no HTTP cache, no Cache Storage), tokenizer files included (≤ 1.5 s);
//     and warm ready, the same page again in the same context (files from Cache Storage); with
//     the CPU time the Chromium processes used over each cold load;
//   - re-render after an edit of a ~2,000-token conversation: in node, render + tokenize + spans +
//     core (the part an edit costs, ≤ 30 ms), wall and CPU time; in the page, from a policy click to the new labels
//     on screen (worker round trip and drawing included);
//   - `npm run chat-masks` over 1,000 conversations of ~500 tokens (≤ 10 s), with one worker
//     thread and with the default (one per core), wall and CPU time;
//   - cold ready for the three smallest families, the measurement the default family was chosen by.
// Every block prints the machine's load average when it starts: on a shared 2-core machine wall
// times scale with it, CPU times much less.
// Figures only, no pass/fail: the machine may be shared. Not here: the other pages (pages.mjs).
//
//   node scripts/bench/chat.mjs        (scripts/bench.sh runs it; dist/ must be built)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { DIST, REPO_ROOT, launchChromium, startSite } from '../../tests/browser/helpers.mjs';
import { analyseChat } from '../../web/chat/chat-analysis.js';
import { chatRequest } from '../../web/chat/chat-request.js';
import { loadChat } from '../../web/core/chat.js';
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

const load = () => `load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`;

// CPU time (ms) used so far by every process this one started (the Chromium tree), from /proc: on
// a machine shared with other work it says what a page load costs, where wall time says the wait.
// Linux only; 0 elsewhere. Clock ticks are 100 per second on Linux.
function childrenCpuMs() {
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const stat = new Map();
  for (const pid of entries) {
    try {
      const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stat.set(Number(pid), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended while we looked
    }
  }
  let ticks = 0;
  for (const [pid, { ticks: t }] of stat) {
    for (let p = stat.get(pid)?.ppid; p; p = stat.get(p)?.ppid) {
      if (p === process.pid) {
        ticks += t;
        break;
      }
    }
  }
  return ticks * 10;
}

async function pageTimes(browser, url, family = null, runs = COLD) {
  const cold = [];
  const warm = [];
  const coldCpu = [];
  for (let i = 0; i < runs; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    for (const list of [cold, warm]) {
      const page = await context.newPage();
      const cpuStart = childrenCpuMs();
      await page.goto(family ? `${url}?f=${family}` : url);
      await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.querySelector('#chips .chip'), null, { timeout: 120_000 });
      list.push(await page.evaluate(() => performance.now()));
      if (list === cold) coldCpu.push(childrenCpuMs() - cpuStart);
      await page.close();
    }
    await context.close();
  }
  if (family) {
    console.log(`  ${family}: cold ${stats(cold)} (CPU ${stats(coldCpu)}); warm ${stats(warm)}`);
    return;
  }
  console.log(`cold ready (navigation -> default conversation labelled, Qwen3 files included; ${load()}): ${stats(cold)}  [target ≤ 1.5 s]`);
  console.log(`  CPU time of all Chromium processes over that cold load: ${stats(coldCpu)}`);
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
  console.log(`in the page, policy click -> new labels drawn, ${tokens}-token conversation (${load()}): ${stats(times)}; last one: worker analysis ${analysis} ms, drawing ${draw} ms`);
  await context.close();
}

function nodeEdits(core, conversation) {
  const fam = nodeFamily('qwen3');
  for (const [where, k0] of [['the last message', conversation.length - 1], ['the first question', 1]]) {
    const times = [];
    const cpu = []; // this process's CPU time per edit: on a loaded machine, closer to what the edit costs
    let tokens = 0;
    for (let i = 0; i < EDITS + 3; i += 1) {
      const edited = conversation.map((m, k) => (k === k0 ? { ...m, content: `${m.content} (edit ${where} ${i})` } : m));
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const chat = analyseChat(fam, edited, {});
      const answer = core.chat(chatRequest(fam, chat, {}));
      const used = process.cpuUsage(cpuStart);
      if (i >= 3) {
        // the first runs warm the caches, as a page's first render does
        times.push(performance.now() - start);
        cpu.push((used.user + used.system) / 1000);
      }
      tokens = answer.input_ids.length;
    }
    console.log(`re-render after an edit of ${where} (template + tokenize + spans + prefix check + core, node, Qwen3, ${load()}), ${tokens} tokens: ${stats(times)}; CPU ${stats(cpu)}  [target ≤ 30 ms]`);
  }
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
    for (const jobs of ['1', null]) {
      const args = [join(REPO_ROOT, 'scripts', 'chat', 'chat-masks.mjs'), '--family', 'qwen3', '--quiet', ...(jobs ? ['--jobs', jobs] : []), file];
      const before = load();
      const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%R %U %S"; time "$@"', 'bash', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
      const [wall, user, sys] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
      const summary = r.stdout.split('\n').find((l) => l.startsWith('chat-masks: 1000')) ?? r.stderr.slice(0, 300);
      console.log(`npm run chat-masks, 1,000 conversations, ${jobs ? '--jobs 1' : 'default jobs (one per core)'} (${before}): ${wall.toFixed(1)} s wall, ${(user + sys).toFixed(1)} s CPU (tokenizer load included)  [target ≤ 10 s]`);
      console.log(`  ${summary}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (!statSync(join(DIST, 'chat.html'), { throwIfNoEntry: false })) throw new Error('dist/chat.html is missing: run npx vite build');
  console.log('\nmasklab chat page and chat-masks (the machine may be shared: figures vary with its load)');
  await sizes();
  const core = await loadChat({ wasmBinary: readFileSync(join(REPO_ROOT, 'web', 'generated', 'masklab_chat.wasm')) });
  const conversation = longConversation(6, SENTENCE, 8);
  nodeEdits(core, conversation);
  cliRun();
  const site = await startSite();
  const browser = await launchChromium();
  try {
    await pageTimes(browser, `${site.url}chat.html`);
    await pageEdits(browser, `${site.url}chat.html`, conversation);
    console.log(`cold and warm ready by family, n=3 (${load()}):`);
    for (const family of ['qwen3', 'llama3_1', 'mistral_nemo']) await pageTimes(browser, `${site.url}chat.html`, family, 3);
  } finally {
    await browser.close();
    await site.close();
  }
}

await main();
