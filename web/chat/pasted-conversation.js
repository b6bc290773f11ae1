// pasted-conversation.js — a conversation pasted from someone's own data into the Chat masks page:
// one line of their dataset ({"messages": …}, ShareGPT's {"conversations": …} or TRL's
// {"prompt": …, "completion": …}, dataset-record.js), or a bare JSON array of messages.
//
//   readPastedConversation(text) -> { messages, promptLength, notes: [text] } | { error }
//       promptLength: the messages in a prompt/completion line's prompt, else null
//
// A pretty-printed object spanning lines is read whole; a paste of several JSONL lines uses the
// first and says so. The messages are checked as any conversation is (validateMessages). The
// page's editor holds role and content only, so other fields (tool_calls, reasoning) are left
// out, and the notes say which.

import { validateMessages } from './chat-analysis.js';
import { conversationOf, SHAREGPT_RENAMED } from './dataset-record.js';

export const MAX_PASTE_CHARS = 2_000_000;

function parseJson(text) {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: error.message };
  }
}

function firstRecord(text) {
  const whole = parseJson(text);
  if (!whole.error) return { value: whole.value, notes: [] };
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > 1) {
    const first = parseJson(lines[0]);
    if (!first.error) return { value: first.value, notes: [`Your paste has ${lines.length} lines; the first one is used.`] };
  }
  return { error: `this is not JSON (${whole.error})` };
}

// The editor holds one list of messages; the page keeps the line's split with it (until a message
// is added, removed or moved), so the "Prompt / completion" target starts where TRL starts.
function promptCompletionNote(n) {
  const prompt = n === 1 ? 'message 1 is' : `messages 1–${n} are`;
  return `Read as prompt/completion: ${prompt} the prompt. TRL trains only the completion by default: choose the target “Prompt / completion” to see it (it keeps this split until you add, remove or move a message).`;
}

export function readPastedConversation(text) {
  if (typeof text !== 'string' || text.trim() === '') return { error: 'paste one line of your dataset, or a JSON array of messages' };
  if (text.length > MAX_PASTE_CHARS) return { error: `the paste is longer than ${MAX_PASTE_CHARS.toLocaleString('en-US')} characters; paste one conversation` };
  const record = firstRecord(text.trim());
  if (record.error) return { error: record.error };
  const conversation = Array.isArray(record.value) ? { messages: record.value, shareGpt: false, promptLength: null } : conversationOf(record.value);
  if (conversation.error) return { error: conversation.error.replace(/^expected /, 'expected a JSON array of messages, ') };
  try {
    validateMessages(conversation.messages);
  } catch (error) {
    return { error: error.message };
  }
  // validateMessages lets a message through with tool calls and no text; the editor cannot show it.
  const textless = conversation.messages.findIndex((m) => typeof m.content !== 'string' || m.content.trim() === '');
  if (textless >= 0) {
    const m = conversation.messages[textless];
    return { error: `message ${textless + 1} (${m.role}) has tool calls and no text; the editor holds role and content only, so it cannot show this conversation` };
  }
  const notes = [...record.notes];
  if (conversation.shareGpt) notes.push(`Read as ShareGPT: "from" is the role (${SHAREGPT_RENAMED}), "value" the content.`);
  if (conversation.promptLength !== null) notes.push(promptCompletionNote(conversation.promptLength));
  const extra = new Set();
  const messages = conversation.messages.map((m) => {
    for (const key of Object.keys(m)) if (key !== 'role' && key !== 'content') extra.add(key);
    return { role: m.role, content: m.content };
  });
  const columns = ['tools', 'chat_template_kwargs'].filter((key) => !Array.isArray(record.value) && record.value[key] !== undefined && record.value[key] !== null);
  if (columns.length) notes.push(`This page renders without the line's ${columns.join(' and ')} (npm run chat-masks uses them).`);
  if (extra.size) notes.push(`The editor keeps each message's role and content; ${[...extra].slice(0, 4).join(', ')} ${extra.size === 1 ? 'is' : 'are'} left out.`);
  return { messages, promptLength: conversation.promptLength, notes };
}
