// pasted-conversation.js — a conversation pasted from someone's own data into the Chat masks page:
// one line of their dataset ({"messages": …}, ShareGPT's {"conversations": …} or TRL's
// {"prompt": …, "completion": …}, dataset-record.js), or a bare JSON array of messages.
//
//   readPastedConversation(text, { line }) -> { messages, promptLength, kwargs, line, lineCount, notes: [text] }
//       | { error, line?, lineCount? }
//       line: which line of a JSONL paste to read (1-based, default 1); lineCount: how many it has
//       promptLength: the messages in a prompt/completion line's prompt, else null
//       kwargs: what the line passes to the template besides its messages (its `tools` and
//         `chat_template_kwargs`, as TRL's SFTTrainer passes them), else null; the page shows
//         them under the conversation (line-arguments.js), not in these notes
//
// A pretty-printed object spanning lines is read whole; a paste of several JSONL lines uses the
// line asked for (the first by default) and says which. The messages are checked as any conversation is (validateMessages). The
// page's editor holds role and content only, so other fields of a message (tool_calls,
// reasoning) are left out, and the notes say which.

import { formatCount } from '../shared/format.js';
import { validateMessages } from './chat-analysis.js';
import { conversationOf, SHAREGPT_RENAMED, templateArgumentsOf } from './dataset-record.js';

export const MAX_PASTE_CHARS = 2_000_000;

function parseJson(text) {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: error.message };
  }
}

// The record to show: the whole paste when it is one JSON value (a pretty-printed object spans
// lines), else line `line` of a JSONL paste (1-based, empty lines skipped; clamped to the lines
// there are). A JSONL paste whose first line is not JSON is reported as the whole paste is.
function recordAt(text, line) {
  const whole = parseJson(text);
  if (!whole.error) return { value: whole.value, line: 1, lineCount: 1 };
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > 1 && !parseJson(lines[0]).error) {
    const n = Math.min(Math.max(1, Math.trunc(line) || 1), lines.length);
    const one = parseJson(lines[n - 1]);
    if (one.error) return { error: `line ${n} of your paste is not JSON (${one.error})`, line: n, lineCount: lines.length };
    return { value: one.value, line: n, lineCount: lines.length };
  }
  return { error: `this is not JSON (${whole.error})` };
}

// The editor holds one list of messages; the page keeps the line's split with it (until a message
// is added, removed or moved), so the "Prompt / completion" target starts where TRL starts.
function promptCompletionNote(n) {
  const prompt = n === 1 ? 'message 1 is' : `messages 1–${n} are`;
  return `Read as prompt/completion: ${prompt} the prompt. TRL trains only the completion by default: the target “Prompt / completion” shows it (it keeps this split until you add, remove or move a message).`;
}

export function readPastedConversation(text, { line = 1 } = {}) {
  if (typeof text !== 'string' || text.trim() === '') return { error: 'paste one line of your dataset, or a JSON array of messages' };
  if (text.length > MAX_PASTE_CHARS) return { error: `the paste is longer than ${formatCount(MAX_PASTE_CHARS)} characters; paste one conversation` };
  const record = recordAt(text.trim(), line);
  if (record.error) return record;
  // In a paste of several lines, every refusal names the line it is about.
  const lines = { line: record.line, lineCount: record.lineCount };
  const refuse = (error) => ({ error: record.lineCount > 1 ? `line ${record.line}: ${error}` : error, ...lines });
  const conversation = Array.isArray(record.value) ? { messages: record.value, shareGpt: false, promptLength: null } : conversationOf(record.value);
  if (conversation.error) return refuse(conversation.error.replace(/^expected /, 'expected a JSON array of messages, '));
  try {
    validateMessages(conversation.messages);
  } catch (error) {
    return refuse(error.message);
  }
  // validateMessages lets a message through with tool calls and no text; the editor cannot show it.
  const textless = conversation.messages.findIndex((m) => typeof m.content !== 'string' || m.content.trim() === '');
  if (textless >= 0) {
    const m = conversation.messages[textless];
    return refuse(`message ${textless + 1} (${m.role}) has tool calls and no text; the editor holds role and content only, so it cannot show this conversation`);
  }
  const args = Array.isArray(record.value) ? { kwargs: {} } : templateArgumentsOf(record.value);
  if (args.error) return refuse(args.error);
  const kwargs = Object.keys(args.kwargs).length ? args.kwargs : null;
  const notes = [];
  if (record.lineCount > 1) notes.push(`Your paste has ${record.lineCount} lines; this is line ${record.line}.`);
  if (conversation.shareGpt) notes.push(`Read as ShareGPT: "from" is the role (${SHAREGPT_RENAMED}), "value" the content.`);
  if (conversation.promptLength !== null) notes.push(promptCompletionNote(conversation.promptLength));
  const extra = new Set();
  const messages = conversation.messages.map((m) => {
    for (const key of Object.keys(m)) if (key !== 'role' && key !== 'content') extra.add(key);
    return { role: m.role, content: m.content };
  });
  if (extra.size) notes.push(`The editor keeps each message's role and content; ${[...extra].slice(0, 4).join(', ')} ${extra.size === 1 ? 'is' : 'are'} left out.`);
  return { messages, promptLength: conversation.promptLength, kwargs, ...lines, notes };
}

/** "tools (2 schemas) and enable_thinking=false": a line's template arguments, for people. */
export function describeTemplateArguments(kwargs) {
  const parts = Object.entries(kwargs).map(([key, value]) => {
    if (key === 'tools') return `tools (${value.length} schema${value.length === 1 ? '' : 's'})`;
    const shown = JSON.stringify(value) ?? String(value);
    return `${key}=${shown.length > 40 ? `${shown.slice(0, 39)}…` : shown}`;
  });
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
}
