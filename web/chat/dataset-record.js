// dataset-record.js — the conversation in one line of an SFT dataset, as `npm run chat-masks`
// and the Chat masks page's paste box read it:
//
//   {"messages": [{"role": …, "content": …}, …]}   TRL's conversational format, taken as it is;
//   {"conversations": [{"from": …, "value": …}, …]}  ShareGPT, each `from` mapped to a role the way
//       axolotl's chat_template strategy maps it by default (human → user, gpt → assistant;
//       any other value kept as it is), `value` read as the content.
//
//   conversationOf(record) -> { messages, shareGpt } | { error }
//   templateArgumentsOf(record) -> { kwargs } | { error }: what TRL's SFTTrainer passes to
//       apply_chat_template besides the messages — the record's `tools` column (a list, or a
//       JSON string of one) as `tools=` and its `chat_template_kwargs` spread as keywords
//
// Which roles a template accepts, and empty messages, are checked later (validateMessages).

export const SHAREGPT_ROLES = { human: 'user', user: 'user', gpt: 'assistant', assistant: 'assistant', system: 'system', tool: 'tool' };

/** The renamings, for people: "human → user, gpt → assistant". */
export const SHAREGPT_RENAMED = Object.entries(SHAREGPT_ROLES)
  .filter(([from, role]) => from !== role)
  .map(([from, role]) => `${from} → ${role}`)
  .join(', ');

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

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

export function templateArgumentsOf(record) {
  const kwargs = {};
  const extra = record?.chat_template_kwargs;
  if (extra !== undefined && extra !== null) {
    if (!isPlainObject(extra)) return { error: '"chat_template_kwargs" must be an object of keyword arguments' };
    Object.assign(kwargs, extra);
  }
  let tools = record?.tools;
  if (typeof tools === 'string') {
    // Datasets often store the schemas as a JSON string; TRL parses it (since 0.29.0).
    try {
      tools = JSON.parse(tools);
    } catch (error) {
      return { error: `"tools" is a string that is not JSON (${error.message})` };
    }
  }
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools) || !tools.every(isPlainObject)) return { error: '"tools" must be a list of tool schemas (JSON objects)' };
    kwargs.tools = tools; // an empty list too: transformers passes it on, and templates test it themselves
  }
  return { kwargs };
}
