// dataset-record.js — the conversation in one line of an SFT dataset, as `npm run chat-masks`
// and the Chat masks page's paste box read it:
//
//   {"messages": [{"role": …, "content": …}, …]}   TRL's conversational format, taken as it is;
//   {"conversations": [{"from": …, "value": …}, …]}  ShareGPT, each `from` mapped to a role the way
//       axolotl's chat_template strategy maps it by default (human → user, gpt → assistant;
//       any other value kept as it is), `value` read as the content;
//   {"prompt": [messages], "completion": [messages]}  TRL's conversational prompt/completion form:
//       the conversation is prompt + completion, and promptLength says where the completion
//       starts (TRL renders the prompt alone with the generation prompt, and trains what follows).
//
//   conversationOf(record) -> { messages, shareGpt, promptLength } | { error }
//       promptLength: the number of prompt messages, or null for a conversation without the split
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
  return { messages, shareGpt: true, promptLength: null };
}

const kindOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'string' ? 'text' : typeof v);

// TRL's SFTTrainer takes a record with "prompt" as prompt/completion data (`"prompt" in example`).
// It applies the chat template only when both are lists of messages (is_conversational); text
// pairs are tokenized as they are, so there is no chat mask to check.
function fromPromptCompletion(record) {
  const { prompt, completion } = record;
  if (completion === undefined) return { error: 'found "prompt" without "completion": SFT data pairs a prompt with its completion' };
  if (typeof prompt === 'string' && typeof completion === 'string') {
    return { error: '"prompt" and "completion" are text, not messages: TRL tokenizes such pairs without a chat template, so there is no chat mask to check' };
  }
  if (!Array.isArray(prompt) || !Array.isArray(completion)) {
    return { error: `"prompt" and "completion" must both be lists of messages (found ${kindOf(prompt)} and ${kindOf(completion)})` };
  }
  if (prompt.length === 0) return { error: '"prompt" is an empty list: there is nothing to render before the completion' };
  if (completion.length === 0) return { error: '"completion" is an empty list: there is nothing to train' };
  return { messages: [...prompt, ...completion], shareGpt: false, promptLength: prompt.length };
}

export function conversationOf(record) {
  if (Array.isArray(record?.messages)) return { messages: record.messages, shareGpt: false, promptLength: null };
  if (Array.isArray(record?.conversations)) return fromShareGpt(record.conversations);
  if (record !== null && typeof record === 'object' && !Array.isArray(record) && 'prompt' in record) return fromPromptCompletion(record);
  return { error: `expected {"messages": [...]}, ShareGPT's {"conversations": [...]} or {"prompt": [...], "completion": [...]}, found ${describe(record)}` };
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
