// dataset-command.js — from the Chat masks page to the command line: the `npm run chat-masks`
// command that checks a whole JSONL file with the choices on screen, and the conversation on
// screen as one line of such a file (what the page's paste box and the command both read).
//
//   datasetCommand(state, { ownTemplate, promptCompletion }) -> { command, args, notes: [text] }
//       command: one line for a shell; args: what follows `npm run -s chat-masks --`
//   datasetLine(messages, { promptLength, kwargs }) -> '{"messages": …}' (one line, no newline)
//
// The command names only what differs from the command's defaults, so it reads as a list of the
// choices made. The CLI's defaults are the page's (chat-request.js DEFAULT_POLICIES), except that
// it trains the completion of prompt/completion lines unless --target says otherwise, as TRL does.

import { familyById } from './families.js';

export const DATA_FILE = 'your-data.jsonl';
export const TEMPLATE_FILE = 'your-template.jinja';

/** A word for a POSIX shell: as it is when safe, else in single quotes. */
export function shellWord(text) {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

export function datasetCommand(state, { ownTemplate = false, promptCompletion = false } = {}) {
  const args = ['--family', state.f];
  const notes = [];
  // The command's own default target: completion for a prompt/completion line, else assistant.
  if (state.t !== (promptCompletion ? 'completion' : 'assistant')) args.push('--target', state.t);
  if (state.eot !== 'every') args.push('--end-of-turn', state.eot);
  if (state.hdr) args.push('--headers');
  if (state.pm !== 'position') args.push('--pad-masking', state.pm);
  if (state.pad !== 'tokenizer') args.push('--pad', state.pad);
  const eos = state.eos > 0 ? familyById(state.f)?.eosChoices[state.eos]?.token : null;
  if (eos) args.push('--eos-token', eos);
  if (state.ml > 0) args.push('--max-length', String(state.ml));
  if (state.ast) args.push('--add-special-tokens');
  if (state.t === 'response_template' && state.rt) args.push('--response-template', state.rt);
  if (state.t === 'response_template' && state.it) notes.push('The command has no instruction template: it searches for the response template alone.');
  if (ownTemplate) {
    args.push('--template', TEMPLATE_FILE);
    notes.push(`Your own template: save it as ${TEMPLATE_FILE} beside your data.`);
  }
  args.push(DATA_FILE);
  const command = ['npm', 'run', '-s', 'chat-masks', '--', ...args].map(shellWord).join(' ');
  return { command, args, notes };
}

export function datasetLine(messages, { promptLength = null, kwargs = null } = {}) {
  const plain = messages.map((m) => ({ role: m.role, content: m.content }));
  const record = promptLength ? { prompt: plain.slice(0, promptLength), completion: plain.slice(promptLength) } : { messages: plain };
  if (kwargs) {
    const { tools, ...rest } = kwargs;
    if (tools !== undefined) record.tools = tools;
    if (Object.keys(rest).length) record.chat_template_kwargs = rest;
  }
  return JSON.stringify(record);
}
