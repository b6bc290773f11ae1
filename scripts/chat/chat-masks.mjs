#!/usr/bin/env node
// chat-masks.mjs — check an SFT dataset's chat masks before a long run:
//
//   npm run chat-masks -- --family qwen3 data.jsonl
//
// Reads a JSONL file of {"messages": [...]} conversations, renders each with the family's real
// chat template, tokenizes it with its real tokenizer (web/chat/, the same module the Chat masks
// page runs) and asks masklab's core (the same wasm module) for labels and warnings. Prints one
// line per conversation (tokens, trained tokens per assistant turn) and every warning with its line
// number, then a summary with the time taken.
//
// Exit status: 0 all conversations train every assistant turn; 1 some assistant turn has no
// trained token (the core's assistant_turn_untrained); 2 bad arguments, or a line that is not JSON,
// has no messages, or that the template refuses (each named by its line).

import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { analyseChat } from '../../web/chat/chat-analysis.js';
import { chatRequest, DEFAULT_POLICIES, END_OF_TURN, PAD_CHOICES, PAD_MASKING, TARGETS } from '../../web/chat/chat-request.js';
import { FAMILIES } from '../../web/chat/families.js';
import { nodeFamily } from './node-family.mjs';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WASM_PATH = join(REPO_ROOT, 'web', 'generated', 'masklab_core.wasm');

export const USAGE = `usage: npm run chat-masks -- --family ${FAMILIES.map((f) => f.id).join('|')} [options] FILE.jsonl

Each line of FILE is {"messages": [{"role": ..., "content": ...}, ...]}.

options:
  --target ${TARGETS.join('|')}   (default assistant)
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

exit status: 0 every assistant turn trains; 1 an assistant turn has no trained token;
2 bad arguments or an unreadable line (named by its number).`;

class UsageError extends Error {}

export function parseArgs(argv) {
  const o = { policies: { ...DEFAULT_POLICIES }, family: null, file: null, template: null, addSpecialTokens: false, quiet: false };
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
      case '--target': o.policies.target = choose(take(i, a), a, TARGETS); i += 1; break;
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

/** Checks every line; `out(line)` prints. Returns { status, conversations, lines, ms, counts }. */
export async function checkFile(options, { core, out = console.log, err = console.error }) {
  const started = performance.now();
  const fam = nodeFamily(options.family);
  if (options.policies.eosToken && fam.tokenId(options.policies.eosToken) === null) {
    throw new UsageError(`--eos-token ${options.policies.eosToken} is not a token of ${fam.family.label}'s tokenizer`);
  }
  const template = options.template ? readFileSync(options.template, 'utf8') : null;
  const counts = { conversations: 0, tokens: 0, trained: 0, bad: 0, untrained: 0, warnings: {} };
  const input = createInterface({ input: createReadStream(options.file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of input) {
    lineNo += 1;
    if (line.trim() === '') continue;
    const where = `${options.file}:${lineNo}`;
    let record;
    try {
      record = JSON.parse(line);
    } catch (error) {
      err(`${where}: error: not JSON (${error.message})`);
      counts.bad += 1;
      continue;
    }
    const messages = record?.messages;
    if (!Array.isArray(messages)) {
      err(`${where}: error: expected {"messages": [...]}, found ${record === null ? 'null' : Array.isArray(record) ? 'an array' : typeof record === 'object' ? `keys ${Object.keys(record).slice(0, 5).join(', ') || '(none)'}` : typeof record}`);
      counts.bad += 1;
      continue;
    }
    let chat;
    try {
      chat = analyseChat(fam, messages, {
        template,
        addSpecialTokens: options.addSpecialTokens,
        eosToken: options.policies.eosToken,
        generationPrompt: options.policies.target === 'response_template',
      });
    } catch (error) {
      err(`${where}: error: ${error.message}`);
      counts.bad += 1;
      continue;
    }
    const answer = core.chat(chatRequest(fam, chat, options.policies));
    if (answer.error) {
      err(`${where}: error: the core refused the request: ${answer.error.field}: ${answer.error.message}`);
      counts.bad += 1;
      continue;
    }
    counts.conversations += 1;
    counts.tokens += answer.input_ids.length;
    counts.trained += answer.trained_tokens;
    if (answer.warning_counts.assistant_turn_untrained > 0) counts.untrained += 1;
    if (!options.quiet) out(`${where}: ${answer.input_ids.length} tokens, ${answer.trained_tokens} trained; assistant turns (trained/tokens): ${describeTurns(answer) || 'none'}`);
    for (const w of answer.warnings) {
      counts.warnings[w.id] = (counts.warnings[w.id] ?? 0) + 1;
      if (w.severity === 'info' && options.quiet) continue;
      out(`${where}: ${w.severity}: ${w.id}: ${w.message}`);
    }
  }
  const ms = performance.now() - started;
  const summary = Object.entries(counts.warnings)
    .map(([id, n]) => `${id} ×${n}`)
    .join(', ');
  out(
    `chat-masks: ${counts.conversations} conversation${counts.conversations === 1 ? '' : 's'}, ${counts.tokens} tokens, ${counts.trained} trained` +
      ` (${fam.family.label}, ${options.policies.target}, end-of-turn ${options.policies.endOfTurn}); ` +
      `${counts.untrained} with an untrained assistant turn; ${counts.bad} unreadable line${counts.bad === 1 ? '' : 's'}; ${(ms / 1000).toFixed(2)} s`,
  );
  if (summary) out(`chat-masks: warnings: ${summary}`);
  const status = counts.bad > 0 ? 2 : counts.untrained > 0 ? 1 : 0;
  return { status, counts, ms };
}

async function loadWasmCore() {
  if (!existsSync(WASM_PATH)) throw new UsageError(`${WASM_PATH} is missing; run bash scripts/build.sh first`);
  const { loadCore } = await import(pathToFileURL(join(REPO_ROOT, 'web', 'core', 'masklab.js')).href);
  return loadCore({ wasmBinary: readFileSync(WASM_PATH) });
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
    const core = await loadWasmCore();
    return (await checkFile(options, { core })).status;
  } catch (error) {
    console.error(`chat-masks: ${error.message}`);
    if (error instanceof UsageError) console.error(USAGE.split('\n')[0]);
    return 2;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
