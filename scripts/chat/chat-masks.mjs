#!/usr/bin/env node
// chat-masks.mjs — check an SFT dataset's chat masks before a long run:
//
//   npm run chat-masks -- --family qwen3 data.jsonl
//
// Reads a JSONL file of {"messages": [...]} conversations (or ShareGPT's {"conversations": [...]},
// or TRL's {"prompt": [...], "completion": [...]}: web/chat/dataset-record.js), renders each with the family's real chat template, tokenizes it
// with its real tokenizer (web/chat/, the same module the Chat masks page runs) and asks
// masklab's core (the same wasm module) for labels and warnings. Prints one
// line per conversation (tokens, trained tokens per assistant turn) and every warning with its line
// number, then a summary with the time taken.
//
// Exit status: 0 all conversations train every assistant turn; 1 some assistant turn has no
// trained token (the core's assistant_turn_untrained); 2 bad arguments, or a line that is not JSON,
// has no messages, that the template refuses, or that takes too long (each named by its line).
//
// Lines are checked on worker threads (line-pool.mjs): one for a small file, one per core (at most
// 4) for files over 256 KB, --jobs N to choose. Results come back in line order, so the output is
// the same whatever the number. A line still being checked after 10 s (--time-limit) is skipped
// and named, as the Chat masks page stops a template that never finishes.
// On a terminal a progress line on stderr says how far the check is; it is erased before every
// other line and at the end, so what is printed is the same with or without it.

import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, workerData } from 'node:worker_threads';

import { analyseChat } from '../../web/chat/chat-analysis.js';
import { chatRequest, DEFAULT_POLICIES, END_OF_TURN, PAD_CHOICES, PAD_MASKING, TARGETS } from '../../web/chat/chat-request.js';
import { FAMILIES, familyById } from '../../web/chat/families.js';
import { conversationOf, SHAREGPT_RENAMED, templateArgumentsOf } from '../../web/chat/dataset-record.js';
import { answerLines, linePool } from './line-pool.mjs';
import { nodeFamily } from './node-family.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WASM_PATH = join(REPO_ROOT, 'web', 'generated', 'masklab_chat.wasm');

export const USAGE = `usage: npm run chat-masks -- --family ${FAMILIES.map((f) => f.id).join('|')} [options] FILE.jsonl

Each line of FILE is {"messages": [{"role": ..., "content": ...}, ...]}, ShareGPT's
{"conversations": [{"from": "human"|"gpt"|"system"|"tool", "value": ...}, ...]}, or TRL's
{"prompt": [messages], "completion": [messages]}.

options:
  --target ${TARGETS.join('|')}
                                 (default assistant; completion for prompt/completion lines, as TRL)
  --end-of-turn ${END_OF_TURN.join('|')}   supervise the assistant's end-of-turn token (default every)
  --headers                      train the assistant's role header too
  --pad-masking ${PAD_MASKING.join('|')}    how the collator masks padding (default position)
  --pad ${PAD_CHOICES.join('|')}          the tokenizer's pad token, or pad = eos (default tokenizer)
  --eos-token TOKEN              use another eos_token (e.g. '<|end_of_text|>')
  --max-length N                 truncate each conversation to N tokens (keeps the start)
  --add-special-tokens           tokenize the rendered text with add_special_tokens=True
  --template FILE                a chat template file instead of the family's
  --response-template TEXT       for --target response_template (default: the generation prompt)
  --quiet                        print only warnings and the summary
  --jobs N                       worker threads (default: one per core, at most 4, for files over 256 KB)
  --time-limit SECONDS           skip a line still being checked after this long (default 10)
  --date YYYY-MM-DD              the date strftime_now prints (gpt-oss's "Current date:"; default today)
  --progress, --no-progress      a progress line on stderr (default: when stderr is a terminal)

exit status: 0 every assistant turn trains; 1 an assistant turn has no trained token;
2 bad arguments or a line that could not be checked (named by its number).`;

class UsageError extends Error {}

export function parseArgs(argv) {
  const o = { policies: { ...DEFAULT_POLICIES }, targetGiven: false, family: null, file: null, template: null, addSpecialTokens: false, quiet: false, jobs: null, date: null, progress: null, timeLimit: 10 };
  const take = (i, name) => {
    if (i + 1 >= argv.length) throw new UsageError(`${name} needs a value`);
    return argv[i + 1];
  };
  const choose = (value, name, choices) => {
    if (!choices.includes(value)) throw new UsageError(`${name} "${value}" is not one of ${choices.join(', ')}`);
    return value;
  };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    switch (a) {
      case '--family': o.family = take(i, a); i += 1; break;
      case '--target': o.policies.target = choose(take(i, a), a, TARGETS); o.targetGiven = true; i += 1; break;
      case '--end-of-turn': o.policies.endOfTurn = choose(take(i, a), a, END_OF_TURN); i += 1; break;
      case '--headers': o.policies.trainHeaders = true; break;
      case '--pad-masking': o.policies.padMasking = choose(take(i, a), a, PAD_MASKING); i += 1; break;
      case '--pad': o.policies.pad = choose(take(i, a), a, PAD_CHOICES); i += 1; break;
      case '--eos-token': o.policies.eosToken = take(i, a); i += 1; break;
      case '--max-length': {
        const n = Number(take(i, a));
        if (!Number.isInteger(n) || n < 1) throw new UsageError('--max-length must be a whole number of at least 1');
        o.policies.maxLength = n;
        i += 1;
        break;
      }
      case '--add-special-tokens': o.addSpecialTokens = true; break;
      case '--template': o.template = take(i, a); i += 1; break;
      case '--response-template': o.policies.responseTemplate = take(i, a); i += 1; break;
      case '--quiet': o.quiet = true; break;
      case '--progress': o.progress = true; break;
      case '--no-progress': o.progress = false; break;
      case '--jobs': {
        const n = Number(take(i, a));
        if (!Number.isInteger(n) || n < 1 || n > 16) throw new UsageError('--jobs must be a whole number from 1 to 16');
        o.jobs = n;
        i += 1;
        break;
      }
      case '--time-limit': {
        const n = Number(take(i, a));
        if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new UsageError('--time-limit must be a number of seconds above 0, at most 3600');
        o.timeLimit = n;
        i += 1;
        break;
      }
      case '--date': {
        const d = take(i, a);
        const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d);
        const date = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
        if (!date || date.getMonth() !== Number(m[2]) - 1 || date.getDate() !== Number(m[3])) throw new UsageError(`--date "${d}" is not a date written YYYY-MM-DD`);
        o.date = d;
        i += 1;
        break;
      }
      case '-h':
      case '--help': o.help = true; break;
      default:
        if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
        if (o.file) throw new UsageError(`one FILE only (got ${o.file} and ${a})`);
        o.file = a;
    }
  }
  if (o.help) return o;
  if (!o.family) throw new UsageError('--family is required');
  if (!FAMILIES.some((f) => f.id === o.family)) throw new UsageError(`--family "${o.family}" is not one of ${FAMILIES.map((f) => f.id).join(', ')}`);
  if (!o.file) throw new UsageError('FILE is required');
  return o;
}

function describeTurns(answer) {
  return answer.turns
    .filter((t) => t.role === 'assistant')
    .map((t) => `${t.trained}/${t.tokens}`)
    .join(' ');
}

// Everything one line gives: { out: [lines], err: [lines], conversation: {tokens, trained, untrained} | null,
// warnings: [ids], shareGpt: whether the line was ShareGPT's from/value, promptCompletion: whether
// it was TRL's prompt/completion }.
function checkLine(ctx, line, lineNo) {
  const { fam, core, template, options, now } = ctx;
  const result = { out: [], err: [], conversation: null, warnings: [], shareGpt: false, promptCompletion: false };
  if (line.trim() === '') return result;
  const where = `${options.file}:${lineNo}`;
  let record;
  try {
    record = JSON.parse(line);
  } catch (error) {
    result.err.push(`${where}: error: not JSON (${error.message})`);
    return result;
  }
  const conversation = conversationOf(record);
  if (conversation.error) {
    result.err.push(`${where}: error: ${conversation.error}`);
    return result;
  }
  const { messages, promptLength } = conversation;
  result.shareGpt = conversation.shareGpt;
  result.promptCompletion = promptLength !== null;
  // TRL's completion_only_loss=None trains only the completion of prompt/completion data.
  const policies = result.promptCompletion && !options.targetGiven ? { ...options.policies, target: 'completion' } : options.policies;
  const args = templateArgumentsOf(record);
  if (args.error) {
    result.err.push(`${where}: error: ${args.error}`);
    return result;
  }
  let chat;
  try {
    chat = analyseChat(fam, messages, {
      template,
      kwargs: { ...fam.family.templateKwargs, ...args.kwargs },
      addSpecialTokens: options.addSpecialTokens,
      eosToken: options.policies.eosToken,
      generationPrompt: policies.target === 'response_template',
      turnByTurn: policies.target === 'turn_by_turn',
      promptLength,
      now,
    });
  } catch (error) {
    result.err.push(`${where}: error: ${error.message}`);
    return result;
  }
  const answer = core.chat(chatRequest(fam, chat, policies));
  if (answer.error) {
    result.err.push(`${where}: error: the core refused the request: ${answer.error.field}: ${answer.error.message}`);
    return result;
  }
  result.conversation = { tokens: answer.input_ids.length, trained: answer.trained_tokens, untrained: answer.warning_counts.assistant_turn_untrained > 0 };
  if (!options.quiet) result.out.push(`${where}: ${answer.input_ids.length} tokens, ${answer.trained_tokens} trained; assistant turns (trained/tokens): ${describeTurns(answer) || 'none'}`);
  for (const w of answer.warnings) {
    result.warnings.push(w.id);
    if (w.severity === 'info' && options.quiet) continue;
    result.out.push(`${where}: ${w.severity}: ${w.id}: ${w.message}`);
  }
  return result;
}

function lineContext(options, core) {
  const fam = nodeFamily(options.family);
  const template = options.template ? readFileSync(options.template, 'utf8') : null;
  let now = null;
  if (options.date) {
    const [y, m, d] = options.date.split('-').map(Number);
    const fixed = new Date(y, m - 1, d);
    now = () => fixed;
  }
  return { fam, core, template, options, now };
}

const PARALLEL_FROM_BYTES = 256 * 1024;

function threadsFor(options) {
  if (options.jobs) return options.jobs;
  return statSync(options.file).size >= PARALLEL_FROM_BYTES ? Math.min(4, Math.max(1, availableParallelism())) : 1;
}

// Each worker thread builds the family and the core once, then checks the lines it is sent.
if (!isMainThread && workerData?.options) {
  const core = await loadWasmCore();
  const ctx = lineContext(workerData.options, core);
  answerLines((line, lineNo) => checkLine(ctx, line, lineNo));
}

// The result of a line whose check was stopped (line-pool.mjs): over the time limit, or its thread died.
function stoppedLine(options, lineNo, why) {
  const where = `${options.file}:${lineNo}`;
  const reason =
    why === 'time'
      ? `the check took longer than ${options.timeLimit} s, so the line was skipped (a chat template that never finishes? --time-limit sets the limit)`
      : `checking the line stopped its worker thread (${why}), so the line was skipped`;
  return { out: [], err: [`${where}: error: ${reason}`], conversation: null, warnings: [] };
}

const PROGRESS_EVERY_MS = 250;

// The progress line: redrawn in place at most every PROGRESS_EVERY_MS (and for the first line
// checked), erased with clear(). `write` takes raw text (process.stderr.write).
function progressLine(write, totalBytes, started) {
  let shown = false;
  let last = -Infinity;
  return {
    clear() {
      if (shown) write('\r\x1b[K');
      shown = false;
    },
    update(lines, bytesRead, conversations) {
      const now = performance.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      const percent = totalBytes > 0 ? Math.min(100, Math.floor((100 * bytesRead) / totalBytes)) : 100;
      // The rate once it means something: the first second is mostly loading the tokenizer.
      const seconds = (now - started) / 1000;
      const rate = seconds >= 1 ? `, ${Math.round(conversations / seconds).toLocaleString('en-US')} conversations/s` : '';
      write(`\r\x1b[Kchat-masks: ${percent} % read, checked to line ${lines.toLocaleString('en-US')}${rate}`);
      shown = true;
    },
  };
}

/**
 * Checks every line; `out(line)` and `err(line)` print, `progress(text)`, when given, draws the
 * progress line. Returns { status, counts, ms }.
 */
export async function checkFile(options, { out: print = console.log, err: printError = console.error, progress = null }) {
  const started = performance.now();
  const bar = progress ? progressLine(progress, statSync(options.file).size, started) : null;
  const out = (line) => {
    bar?.clear();
    print(line);
  };
  const err = (line) => {
    bar?.clear();
    printError(line);
  };
  let linesDone = 0;
  let bytesRead = 0;
  const family = familyById(options.family);
  if (options.policies.eosToken && nodeFamily(options.family).tokenId(options.policies.eosToken) === null) {
    throw new UsageError(`--eos-token ${options.policies.eosToken} is not a token of ${family.label}'s tokenizer`);
  }
  const counts = { conversations: 0, tokens: 0, trained: 0, bad: 0, untrained: 0, shareGpt: 0, promptCompletion: 0, promptCompletionChecked: 0, warnings: {} };
  const take = (r) => {
    for (const line of r.err) err(line);
    if (r.err.length) counts.bad += 1;
    for (const line of r.out) out(line);
    if (r.conversation) {
      counts.conversations += 1;
      counts.tokens += r.conversation.tokens;
      counts.trained += r.conversation.trained;
      if (r.conversation.untrained) counts.untrained += 1;
    }
    for (const id of r.warnings) counts.warnings[id] = (counts.warnings[id] ?? 0) + 1;
    if (r.shareGpt) counts.shareGpt += 1;
    if (r.promptCompletion) counts.promptCompletion += 1;
    if (r.promptCompletion && r.conversation) counts.promptCompletionChecked += 1;
    linesDone += 1;
    bar?.update(linesDone, bytesRead, counts.conversations);
  };
  const read = (line) => {
    bytesRead += Buffer.byteLength(line) + 1;
    return line;
  };
  const input = createInterface({ input: createReadStream(options.file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const pool = linePool({
    script: fileURLToPath(import.meta.url),
    workerData: { options },
    threads: threadsFor(options),
    limitMs: options.timeLimit * 1000,
    stopped: (lineNo, why) => stoppedLine(options, lineNo, why),
    onResult: take,
  });
  let lineNo = 0;
  const numbered = (async function* () {
    for await (const line of input) yield [++lineNo, read(line)];
  })();
  try {
    await pool.check(numbered);
  } finally {
    bar?.clear(); // also when the check fails: the message starts on a clean line
  }
  const ms = performance.now() - started;
  const summary = Object.entries(counts.warnings)
    .map(([id, n]) => `${id} ×${n}`)
    .join(', ');
  out(
    `chat-masks: ${counts.conversations} conversation${counts.conversations === 1 ? '' : 's'}, ${counts.tokens} tokens, ${counts.trained} trained` +
      ` (${family.label}, ${targetLabel(options, counts)}, end-of-turn ${options.policies.endOfTurn}); ` +
      `${counts.untrained} with an untrained assistant turn; ${counts.bad} line${counts.bad === 1 ? '' : 's'} not checked; ${(ms / 1000).toFixed(2)} s`,
  );
  if (summary) out(`chat-masks: warnings: ${summary}`);
  if (counts.shareGpt) {
    out(`chat-masks: ${counts.shareGpt} line${counts.shareGpt === 1 ? '' : 's'} in ShareGPT form: "from" read as the role (${SHAREGPT_RENAMED}), "value" as the content`);
  }
  if (counts.promptCompletion) {
    const how = options.targetGiven ? `trained by --target ${options.policies.target}` : 'the completion trained, as TRL trains it by default (completion_only_loss)';
    out(`chat-masks: ${counts.promptCompletion} line${counts.promptCompletion === 1 ? '' : 's'} in prompt/completion form: the prompt rendered with the generation prompt, ${how}`);
  }
  const status = counts.bad > 0 ? 2 : counts.untrained > 0 ? 1 : 0;
  return { status, counts, ms };
}

// The target the summary names: --target's, or the default per form of line (prompt/completion
// lines train their completion unless --target says otherwise).
function targetLabel(options, counts) {
  if (options.targetGiven || counts.promptCompletionChecked === 0) return options.policies.target;
  if (counts.promptCompletionChecked === counts.conversations) return 'completion';
  return `${options.policies.target}, completion on prompt/completion lines`;
}

async function loadWasmCore() {
  if (!existsSync(WASM_PATH)) throw new UsageError(`${WASM_PATH} is missing; run bash scripts/build.sh first`);
  const { loadChat } = await import(pathToFileURL(join(REPO_ROOT, 'web', 'core', 'chat.js')).href);
  return loadChat({ wasmBinary: readFileSync(WASM_PATH) });
}

async function main(argv) {
  let options;
  try {
    options = parseArgs(argv);
    if (options.help) {
      console.log(USAGE);
      return 0;
    }
    if (!existsSync(options.file)) throw new UsageError(`${options.file}: no such file`);
    if (!existsSync(WASM_PATH)) throw new UsageError(`${WASM_PATH} is missing; run bash scripts/build.sh first`);
    const progress = options.progress ?? Boolean(process.stderr.isTTY);
    return (await checkFile(options, { progress: progress ? (text) => process.stderr.write(text) : null })).status;
  } catch (error) {
    console.error(`chat-masks: ${error.message}`);
    if (error instanceof UsageError) console.error(USAGE.split('\n')[0]);
    return 2;
  }
}

if (isMainThread && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
