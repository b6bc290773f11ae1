// dataset-record.js — the conversation in one line of an SFT dataset, as `npm run chat-masks`
// and the Chat masks page's paste box read it:
//
//   {"messages": [{"role": …, "content": …}, …]}   TRL's conversational format, taken as it is;
//   {"conversations": [{"from": …, "value": …}, …]}  ShareGPT, each `from` mapped to a role the way
//       axolotl's chat_template strategy maps it by default (human → user, gpt → assistant;
//       any other value kept as it is), `value` read as the content.
//
//   conversationOf(record) -> { messages, shareGpt } | { error }
//
// Which roles a template accepts, and empty messages, are checked later (validateMessages).

export const SHAREGPT_ROLES = { human: 'user', user: 'user', gpt: 'assistant', assistant: 'assistant', system: 'system', tool: 'tool' };

function describe(record) {
  if (record === null) return 'null';
  if (Array.isArray(record)) return 'an array';
  if (typeof record !== 'object') return typeof record;
  return `keys ${Object.keys(record).slice(0, 5).join(', ') || '(none)'}`;
}

function fromShareGpt(turns) {
  const messages = [];
  for (const [i, turn] of turns.entries()) {
    const at = `message ${i + 1}`; // numbered from 1, as the other messages about a conversation
    if (turn === null || typeof turn !== 'object' || Array.isArray(turn)) return { error: `${at} is not an object with "from" and "value"` };
    if (typeof turn.from !== 'string') return { error: `${at}: "from" is not a string` };
    if (typeof turn.value !== 'string') return { error: `${at}: "value" is not a string` };
    // An unmapped `from` stays the role, as in axolotl; validateMessages then names it if no
    // template role matches.
    messages.push({ role: SHAREGPT_ROLES[turn.from] ?? turn.from, content: turn.value });
  }
  return { messages, shareGpt: true };
}

export function conversationOf(record) {
  if (Array.isArray(record?.messages)) return { messages: record.messages, shareGpt: false };
  if (Array.isArray(record?.conversations)) return fromShareGpt(record.conversations);
  return { error: `expected {"messages": [...]} or ShareGPT's {"conversations": [...]}, found ${describe(record)}` };
}
