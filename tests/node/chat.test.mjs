// chat.test.mjs — the real tokenizers and chat templates of every family (web/chat/, the module
// the Chat masks page, the chat-masks CLI and the content build share), through the wasm core's
// `chat` command.
//
// One short conversation per family, worked out by hand: user "Hi", assistant "Hello!". The
// rendered text follows from each template (Qwen3's and Gemma 3's in their package's
// tokenizer_config.json; Llama 3.1's, Mistral Nemo's and gpt-oss's from llama.cpp's copies,
// families.js chatTemplate); the tokens follow from the pre-tokenizer rules (a word, "!" on its
// own, newlines grouped, digits in groups of at most three, every special token whole) and, where a
// word is not in the vocabulary whole, from BPE (checked by a vocabulary lookup below); the
// special-token ids are the ones tokenizer.json lists. With the default policy (assistant turns,
// every end-of-turn token trained) exactly three tokens are trained in each family: "Hello", "!"
// and the end-of-turn token. Templates that print a date (gpt-oss's strftime_now) render with a
// fixed clock, 5 August 2025.

import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { analyseChat, validateMessages } from '../../web/chat/chat-analysis.js';
import { chatRequest } from '../../web/chat/chat-request.js';
import { ChatError } from '../../web/chat/chat-template.js';
import { nodeFamily } from '../../scripts/chat/node-family.mjs';
import { loadWasmChat } from './helpers.mjs';

const HI = [
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Hello!' },
];

const NOW = () => new Date(2025, 7, 5, 12, 0);

let core;
before(async () => {
  core = await loadWasmChat();
});

function masks(famId, messages, policies = {}, options = {}) {
  const fam = nodeFamily(famId);
  const chat = analyseChat(fam, messages, { generationPrompt: policies.target === 'response_template', now: NOW, ...options });
  const answer = core.chat(chatRequest(fam, chat, policies));
  assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  return { fam, chat, answer };
}

const trainedTokens = ({ chat, answer }) => answer.labels.flatMap((l, t) => (l === -100 ? [] : [chat.display[t]]));
const warningIds = ({ answer }) => answer.warnings.map((w) => w.id);

const HAND = {
  qwen3: {
    // No BOS; ChatML headers; the last assistant turn gets an empty think block.
    text: '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nHello!<|im_end|>\n',
    tokens: ['<|im_start|>', 'user', '\n', 'Hi', '<|im_end|>', '\n', '<|im_start|>', 'assistant', '\n', '<think>', '\n\n', '</think>', '\n\n', 'Hello', '!', '<|im_end|>', '\n'],
    specials: { '<|im_start|>': 151644, '<|im_end|>': 151645 },
    endOfTurn: '<|im_end|>',
  },
  llama3_1: {
    // Meta's 3.1 template always writes a system block with two dates (its date_string default,
    // "26 Jul 2024"), even when the conversation has no system message: template scaffolding.
    text:
      '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>' +
      '<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nHello!<|eot_id|>',
    tokens: [
      '<|begin_of_text|>', '<|start_header_id|>', 'system', '<|end_header_id|>', '\n\n',
      'Cut', 'ting', ' Knowledge', ' Date', ':', ' December', ' ', '202', '3', '\n',
      'Today', ' Date', ':', ' ', '26', ' Jul', ' ', '202', '4', '\n\n', '<|eot_id|>',
      '<|start_header_id|>', 'user', '<|end_header_id|>', '\n\n', 'Hi', '<|eot_id|>', '<|start_header_id|>', 'assistant', '<|end_header_id|>', '\n\n', 'Hello', '!', '<|eot_id|>',
    ],
    specials: { '<|begin_of_text|>': 128000, '<|eot_id|>': 128009 },
    endOfTurn: '<|eot_id|>',
    scaffolding: 26, // BOS and the system block up to its <|eot_id|>
    notWhole: { Cutting: ['Cut', 'ting'] },
  },
  gemma3: {
    // The assistant's role is printed "model".
    text: '<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\nHello!<end_of_turn>\n',
    tokens: ['<bos>', '<start_of_turn>', 'user', '\n', 'Hi', '<end_of_turn>', '\n', '<start_of_turn>', 'model', '\n', 'Hello', '!', '<end_of_turn>', '\n'],
    specials: { '<bos>': 2, '<start_of_turn>': 105, '<end_of_turn>': 106 },
    endOfTurn: '<end_of_turn>',
  },
  mistral_nemo: {
    // No assistant header: the answer follows [/INST] directly and ends with eos_token.
    text: '<s>[INST]Hi[/INST]Hello!</s>',
    tokens: ['<s>', '[INST]', 'Hi', '[/INST]', 'Hello', '!', '</s>'],
    specials: { '<s>': 1, '[INST]': 3, '[/INST]': 4, '</s>': 2 },
    endOfTurn: '</s>',
  },
  gptoss: {
    // Harmony: the template's own system message (identity, knowledge cutoff, today's date,
    // reasoning effort, valid channels) ends with <|end|>; the user message too; the final answer
    // goes to the "final" channel and, as the last message of a training example, ends with
    // <|return|> (the template: "<|return|> indicates the end of generation").
    text:
      '<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: 2025-08-05\n\n' +
      'Reasoning: medium\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.<|end|>' +
      '<|start|>user<|message|>Hi<|end|><|start|>assistant<|channel|>final<|message|>Hello!<|return|>',
    tokens: [
      '<|start|>', 'system', '<|message|>', 'You', ' are', ' Chat', 'GPT', ',', ' a', ' large', ' language', ' model', ' trained', ' by', ' Open', 'AI', '.\n',
      'Knowledge', ' cutoff', ':', ' ', '202', '4', '-', '06', '\n', 'Current', ' date', ':', ' ', '202', '5', '-', '08', '-', '05', '\n\n',
      'Reason', 'ing', ':', ' medium', '\n\n', '#', ' Valid', ' channels', ':', ' analysis', ',', ' commentary', ',', ' final', '.',
      ' Channel', ' must', ' be', ' included', ' for', ' every', ' message', '.', '<|end|>',
      '<|start|>', 'user', '<|message|>', 'Hi', '<|end|>', '<|start|>', 'assistant', '<|channel|>', 'final', '<|message|>', 'Hello', '!', '<|return|>',
    ],
    specials: { '<|start|>': 200006, '<|message|>': 200008, '<|end|>': 200007, '<|channel|>': 200005, '<|return|>': 200002 },
    endOfTurn: '<|return|>',
    scaffolding: 61, // the template's system message, <|end|> included
    notWhole: { Reasoning: ['Reason', 'ing'], ChatGPT: [' Chat', 'GPT'] },
  },
};

describe('each family renders and tokenizes "Hi" / "Hello!" as worked out by hand', () => {
  for (const [id, hand] of Object.entries(HAND)) {
    test(id, () => {
      const m = masks(id, HI);
      assert.equal(m.chat.text, hand.text);
      assert.deepEqual(m.chat.display, hand.tokens);
      for (const [token, tokenId] of Object.entries(hand.specials)) {
        const at = hand.tokens.indexOf(token);
        assert.equal(m.chat.ids[at], tokenId, `${token} has id ${tokenId}`);
        assert.equal(m.chat.special[at], 1, `${token} is marked special`);
      }
      assert.deepEqual(trainedTokens(m), ['Hello', '!', hand.endOfTurn]);
      const assistant = m.answer.turns[1];
      assert.equal(assistant.trained, 3);
      assert.equal(assistant.end_of_turn_trained, true);
      assert.equal(m.answer.turns[0].trained, 0);
      // Every token before the answer is -100, each with a reason.
      const firstTrained = hand.tokens.indexOf('Hello');
      for (let t = 0; t < firstTrained; t += 1) assert.notEqual(m.answer.label_reasons[t], '', `token ${t} ${hand.tokens[t]}`);
      // A block the template writes of its own before the first message is scaffolding.
      if (hand.scaffolding) {
        assert.deepEqual(m.answer.label_reasons.slice(0, hand.scaffolding), new Array(hand.scaffolding).fill('scaffolding'));
        assert.equal(m.answer.label_reasons[hand.scaffolding], 'role_header');
      }
      // The BPE splits above: the word is not in the vocabulary whole, its pieces are.
      for (const [word, pieces] of Object.entries(hand.notWhole ?? {})) {
        const spelled = (t) => t.replaceAll(' ', 'Ġ');
        assert.equal(m.fam.tokenId(spelled(pieces.join(''))), null, `${word} is not one token`);
        for (const p of pieces) assert.notEqual(m.fam.tokenId(spelled(p)), null, `${p} is a token`);
      }
    });
  }
});

describe('policies on the real tokens', () => {
  test('the role header is the template text before the answer: 4 tokens in Llama 3.1, 7 in Qwen3 (with the think block)', () => {
    const llama = masks('llama3_1', HI, { trainHeaders: true });
    assert.deepEqual(trainedTokens(llama), ['<|start_header_id|>', 'assistant', '<|end_header_id|>', '\n\n', 'Hello', '!', '<|eot_id|>']);
    const qwen = masks('qwen3', HI, { trainHeaders: true });
    assert.equal(qwen.answer.trained_tokens, 3 + 7);
  });

  test('end-of-turn never: the answer without its stop token, and the core says so', () => {
    const m = masks('gemma3', HI, { endOfTurn: 'never' });
    assert.deepEqual(trainedTokens(m), ['Hello', '!']);
    assert.equal(m.answer.label_reasons[12], 'end_of_turn');
    assert.ok(warningIds(m).includes('end_of_turn_untrained'));
  });

  test('prompt/completion in Qwen3: the completion starts after the generation prompt, so the think block and the final newline are trained', () => {
    const m = masks('qwen3', HI, { target: 'completion' });
    assert.deepEqual(trainedTokens(m), ['<think>', '\n\n', '</think>', '\n\n', 'Hello', '!', '<|im_end|>', '\n']);
  });

  test('Llama 3.1 has no pad token: TRL pads with eos (= <|eot_id|>); masking labels by pad id then erases the end-of-turn', () => {
    const m = masks('llama3_1', HI, { padMasking: 'pad_id' });
    assert.deepEqual(trainedTokens(m), ['Hello', '!']);
    const answerEnd = HAND.llama3_1.tokens.length - 1;
    assert.equal(m.answer.label_reasons[answerEnd], 'pad_id');
    const pad = m.answer.warnings.find((w) => w.id === 'pad_is_end_of_turn');
    assert.equal(pad.severity, 'error');
    assert.deepEqual(pad.positions, [answerEnd]);
  });

  test("Llama 3.1 with the base checkpoint's eos_token <|end_of_text|> (128001): turns end with <|eot_id|> (128009)", () => {
    const m = masks('llama3_1', HI, { eosToken: '<|end_of_text|>' }, { eosToken: '<|end_of_text|>' });
    const w = m.answer.warnings.find((x) => x.id === 'eos_differs_from_end_of_turn');
    assert.ok(w, JSON.stringify(warningIds(m)));
    assert.match(w.message, /128001/);
    assert.match(w.message, /128009/);
    assert.equal(m.answer.end_of_turn_token_id, 128009);
  });

  test('doubled BOS when the rendered text is tokenized again with add_special_tokens=True (Llama, Gemma, Mistral; Qwen has no BOS)', () => {
    for (const [id, bos] of [['llama3_1', 128000], ['gemma3', 2], ['mistral_nemo', 1]]) {
      const m = masks(id, HI, {}, { addSpecialTokens: true });
      assert.deepEqual(m.chat.ids.slice(0, 2), [bos, bos], id);
      assert.ok(warningIds(m).includes('doubled_bos'), id);
      assert.deepEqual(trainedTokens(m).slice(0, 2), ['Hello', '!'], `${id}: the spans still line up`);
    }
    const qwen = masks('qwen3', HI, {}, { addSpecialTokens: true });
    assert.equal(qwen.chat.ids.length, HAND.qwen3.tokens.length);
    assert.ok(!warningIds(qwen).includes('doubled_bos'));
  });

  test("response-template search (TRL's completion-only collator) in Qwen3: the last match wins, so a two-turn row trains only its final answer", () => {
    const twoTurns = [...HI, { role: 'user', content: 'Bye' }, { role: 'assistant', content: 'Bye!' }];
    const m = masks('qwen3', twoTurns, { target: 'response_template' });
    assert.equal(m.chat.generationPrompt, '<|im_start|>assistant\n');
    assert.equal(m.answer.turns[1].trained, 0);
    assert.ok(m.answer.turns[3].trained > 0);
    const w = m.answer.warnings.find((x) => x.id === 'assistant_turn_untrained');
    assert.equal(w.turn, 1);
  });

  test('response-template search with an instruction template: an answer that starts with a newline tokenizes "\n\n" with the header\'s newline, its key is not found, and the whole row is dropped', () => {
    const convo = [
      { role: 'user', content: 'Show code' },
      { role: 'assistant', content: '\nprint(1)' },
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: 'Welcome!' },
    ];
    const m = masks('qwen3', convo, { target: 'response_template', instructionTemplate: '<|im_start|>user\n' });
    const first = m.chat.messages[1].content[0];
    assert.equal(m.chat.display[first], '\n\n', 'the header newline and the answer\'s newline are one token');
    assert.ok(m.chat.boundaryTokens.includes(first), 'and that token is reported as holding template and message text');
    assert.equal(m.answer.trained_tokens, 0);
    assert.equal(m.answer.warning_counts.assistant_turn_untrained, 2);
    // Spans from the template itself train both answers.
    assert.equal(masks('qwen3', convo).answer.warning_counts.assistant_turn_untrained, 0);
  });
});

describe('the response template typed inside a message', () => {
  // A user pastes a ChatML log into a Qwen3 conversation. The tokenizer splits special tokens out
  // of any text, so the user's "<|im_start|>assistant\n" is the header's own ids, 151644 77091 198.
  const QUOTED = [
    { role: 'user', content: 'My log has this line:\n<|im_start|>assistant\nOK\nWhat is it?' },
    { role: 'assistant', content: 'A chat header.' },
  ];

  test('with an instruction template the match shifts TRL\'s pairing, and the rest of the user message is trained', () => {
    const m = masks('qwen3', QUOTED, { target: 'response_template', instructionTemplate: '<|im_start|>user\n' });
    const user = m.chat.messages[0];
    const quote = m.chat.display.slice(user.content[0], user.content[1]);
    assert.deepEqual(quote, ['My', ' log', ' has', ' this', ' line', ':\n', '<|im_start|>', 'assistant', '\n', 'OK', '\n', 'What', ' is', ' it', '?']);
    // Human starts [0], response ends [12 (inside the user text), 23 (the real header)]: zip pairs
    // (0, 12), so labels[:12] = -100 and everything after the quoted header is trained: "OK", "\n",
    // "What", " is", " it", "?", the user's <|im_end|> and "\n" (8 tokens), and the real header too.
    assert.equal(m.answer.turns[0].trained, 8);
    assert.deepEqual(trainedTokens(m).slice(0, 8), ['OK', '\n', 'What', ' is', ' it', '?', '<|im_end|>', '\n']);
    const w = m.answer.warnings.find((x) => x.id === 'response_template_in_message');
    assert.equal(w.severity, 'error');
    assert.equal(w.turn, 0);
    assert.deepEqual(w.positions, [user.content[0] + 6, user.content[0] + 7, user.content[0] + 8]);
  });

  test('without one the last match (the real header) decides: same labels as before, a warning only', () => {
    const m = masks('qwen3', QUOTED, { target: 'response_template' });
    assert.equal(m.answer.turns[0].trained, 0);
    assert.equal(m.answer.warnings.find((x) => x.id === 'response_template_in_message').severity, 'warning');
    // Role spans never look at the text: the quote is user content, not a header.
    const roles = masks('qwen3', QUOTED);
    assert.equal(roles.answer.turns[0].trained, 0);
    assert.ok(!warningIds(roles).includes('response_template_in_message'));
  });
});

describe('prefix stability', () => {
  const twoTurns = [...HI, { role: 'user', content: 'Bye' }, { role: 'assistant', content: 'Bye!' }];

  test('Qwen3 renders an earlier answer without the think block once a later turn exists', () => {
    const m = masks('qwen3', twoTurns);
    assert.deepEqual(m.chat.prefixBreaks, [1]);
    const w = m.answer.warnings.find((x) => x.id === 'not_prefix_stable');
    assert.equal(w.turn, 1);
  });

  test('Llama 3.1 and Gemma 3 are prefix-stable', () => {
    assert.deepEqual(masks('llama3_1', twoTurns).chat.prefixBreaks, []);
    assert.deepEqual(masks('gemma3', twoTurns).chat.prefixBreaks, []);
  });

  test("Mistral Nemo drops a system message unless the conversation ends on a user turn", () => {
    const m = masks('mistral_nemo', [{ role: 'system', content: 'Be brief.' }, ...HI]);
    assert.equal(m.chat.text.includes('Be brief.'), false);
    assert.ok(warningIds(m).includes('message_not_rendered'));
  });
});

describe("a dataset's tools column, as TRL's SFTTrainer passes it (tools=example.get('tools'))", () => {
  test("Qwen3 prints the tool schemas in a system block of its own, through tojson, before the conversation", () => {
    const tool = { type: 'function', function: { name: 'get_time', description: 'The current time', parameters: { type: 'object', properties: {} } } };
    const chat = analyseChat(nodeFamily('qwen3'), HI, { kwargs: { tools: [tool] } });
    // Qwen3's template: "<|im_start|>system\n# Tools\n\n…<tools>" + "\n" + (tool | tojson) per tool
    // + "\n</tools>…</tool_call><|im_end|>\n"; tojson is json.dumps with ", " and ": ".
    const schema = '{"type": "function", "function": {"name": "get_time", "description": "The current time", "parameters": {"type": "object", "properties": {}}}}';
    assert.equal(
      chat.text,
      '<|im_start|>system\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
        'You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n' +
        schema +
        '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n' +
        '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n' +
        '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nHello!<|im_end|>\n',
    );
  });
});

describe('bad input names the message', () => {
  const fam = () => nodeFamily('qwen3');

  test('unknown role, empty message, no messages', () => {
    assert.throws(() => validateMessages([{ role: 'user', content: 'a' }, { role: 'bot', content: 'b' }]), /message 2: role "bot" is not one of/);
    assert.throws(() => analyseChat(fam(), [{ role: 'user', content: '  ' }]), (e) => e instanceof ChatError && e.messageIndex === 0 && /message 1 \(user\) is empty/.test(e.message));
    assert.throws(() => analyseChat(fam(), []), /no messages/);
  });

  test("a role order the template rejects (Gemma 3's raise_exception) names the message", () => {
    assert.throws(
      () => analyseChat(nodeFamily('gemma3'), [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]),
      (e) => e.kind === 'render' && e.messageIndex === 1 && /roles must alternate/.test(e.message) && /message 2 \(user\)/.test(e.message),
    );
  });

  test("Mistral Nemo's current template refuses two user turns in a row, as in Python", () => {
    assert.throws(
      () => analyseChat(nodeFamily('mistral_nemo'), [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]),
      (e) => e.kind === 'render' && e.messageIndex === 1 && /roles must alternate/.test(e.message),
    );
  });

  test("known divergence: the npm package's older Mistral Nemo template skips its alternation check under @huggingface/jinja 0.5.11", () => {
    // Its loop filters messages with selectattr("tool_calls", "undefined"), which selects every
    // plain message in Python's Jinja but none here, so [user, user] renders instead of raising.
    // docs/semantics.md §8.8; if this starts failing, the library changed: update the docs.
    const fam = nodeFamily('mistral_nemo');
    const chat = analyseChat(fam, [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }], { template: fam.config.chat_template });
    assert.equal(chat.text, '<s>[INST]a[/INST][INST]b[/INST]');
  });

  test('a template that does not parse, and one that fails while rendering', () => {
    assert.throws(() => analyseChat(fam(), HI, { template: '{% for m in messages %}{{ m.content }}' }), (e) => e.kind === 'template');
    assert.throws(() => analyseChat(fam(), HI, { template: '{{ messages[0].content.nope() }}' }), (e) => e.kind === 'render');
  });

  test('an error the template raises whatever the messages names no message', () => {
    for (const template of ["{{ raise_exception('this template is broken') }}", '{% for m in messages %}{{ m.content }}{% endfor %}{{ raise_exception("this template is broken") }}']) {
      assert.throws(
        () => analyseChat(fam(), HI, { template }),
        (e) => e.kind === 'render' && e.messageIndex === null && e.message === 'the chat template fails whatever the conversation: this template is broken',
        template,
      );
    }
    // One that reads the first message fails differently with none: message 1 is still named.
    assert.throws(
      () => analyseChat(fam(), HI, { template: "{% if messages[0].role == 'user' %}{{ raise_exception('no system prompt') }}{% endif %}" }),
      (e) => e.messageIndex === 0 && /the chat template refused message 1 \(user\): no system prompt/.test(e.message),
    );
  });

  test("range() is the sandbox's (transformers renders in ImmutableSandboxedEnvironment): more than 100000 items are refused", () => {
    const render = (expr) => analyseChat(fam(), HI, { template: `{{ ${expr} }}` }).text;
    // Python: list(range(5, -5, -3)) == [5, 2, -1, -4]; list(range(3, 0)) == []; range(True) == range(1).
    assert.equal(render("range(5, -5, -3) | join(',')"), '5,2,-1,-4');
    assert.equal(render('range(3, 0) | length'), '0');
    assert.equal(render('range(true) | length'), '1');
    // len(range(100000)) and len(range(0, 200000, 2)) are exactly MAX_RANGE: allowed.
    assert.equal(render('range(100000) | length'), '100000');
    assert.equal(render('range(0, 200000, 2) | last'), '199998');
    // One more item is refused before any is made, with Python's message.
    for (const expr of ['range(100001) | length', 'range(0, 200001, 2) | length', 'range(10, -99991, -1) | length', 'range(200000000) | length']) {
      assert.throws(
        () => render(expr),
        (e) => e.kind === 'render' && e.message === 'the chat template fails whatever the conversation: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).',
        expr,
      );
    }
    assert.throws(() => render('range(1.5)'), /'float' object cannot be interpreted as an integer/);
    assert.throws(() => render('range(0, 5, 0)'), /range\(\) arg 3 must not be zero/);
  });

  test("gpt-oss: a tool message with no tool call before it is refused by the template, naming the message", () => {
    assert.throws(
      () => analyseChat(nodeFamily('gptoss'), [{ role: 'user', content: 'a' }, { role: 'tool', content: '{}' }], { now: NOW }),
      (e) => e.kind === 'render' && e.messageIndex === 1 && /no previous assistant message with a tool call/.test(e.message),
    );
  });
});

describe('gpt-oss (harmony) and Llama 3.1, with their real templates', () => {
  const twoTurns = [...HI, { role: 'user', content: 'Bye' }, { role: 'assistant', content: 'Bye!' }];

  test("the package's tokenizer_config.json has no template; the family's comes from llama.cpp's copy", () => {
    const g = nodeFamily('gptoss');
    assert.equal(g.config.chat_template, undefined);
    assert.match(g.template, /<\|return\|> indicates the end of generation/);
    assert.match(nodeFamily('llama3_1').template, /Cutting Knowledge Date/);
    assert.doesNotMatch(nodeFamily('llama3_1').config.chat_template, /Cutting Knowledge Date/, 'the package carries the short Llama 3 template');
  });

  test('gpt-oss: an earlier answer ends with <|end|>, the last with <|return|>, so no earlier turn is prefix-stable', () => {
    const m = masks('gptoss', twoTurns);
    const ends = m.chat.messages.filter((s) => s.role === 'assistant').map((s) => m.chat.display[s.endOfTurn]);
    assert.deepEqual(ends, ['<|end|>', '<|return|>']);
    assert.deepEqual(m.chat.prefixBreaks, [1]);
    // The eos_token as shipped is <|return|>: the last turn's end, the one generation stops on.
    assert.equal(m.answer.end_of_turn_token_id, 200002);
    assert.ok(!warningIds(m).includes('eos_differs_from_end_of_turn'));
    // Every end-of-turn token trained: <|end|> after "Hello!" too, which a model only emits
    // after a non-final message at inference; the last turn alone is what the template shapes for training.
    assert.deepEqual(trainedTokens(m), ['Hello', '!', '<|end|>', 'Bye', '!', '<|return|>']);
    assert.deepEqual(trainedTokens(masks('gptoss', twoTurns, { target: 'last_assistant' })), ['Bye', '!', '<|return|>']);
  });

  test("gpt-oss with eos_token <|end|>: the last answer's <|return|> is not the eos", () => {
    const m = masks('gptoss', HI, { eosToken: '<|end|>' }, { eosToken: '<|end|>' });
    assert.ok(warningIds(m).includes('eos_differs_from_end_of_turn'));
  });

  test('gpt-oss: the analysis channel (thinking) is rendered for the last answer only', () => {
    const convo = [
      { role: 'user', content: 'Is 91 prime?' },
      { role: 'assistant', thinking: '91 = 7 x 13.', content: 'No.' },
      { role: 'user', content: '97?' },
      { role: 'assistant', thinking: 'No divisor up to 9.', content: 'Yes.' },
    ];
    const m = masks('gptoss', convo);
    assert.ok(!m.chat.text.includes('91 = 7 x 13.'), 'the earlier analysis is dropped');
    assert.ok(m.chat.text.includes('<|start|>assistant<|channel|>analysis<|message|>No divisor up to 9.<|end|><|start|>assistant<|channel|>final<|message|>Yes.<|return|>'));
    assert.deepEqual(m.chat.prefixBreaks, [1]);
    // The analysis message sits before the final answer's content: masklab counts it in the turn's
    // header, so role spans leave it out and the completion target (after "<|start|>assistant") trains it.
    const last = m.chat.messages[3];
    assert.ok(m.chat.display.slice(...last.header).join('').includes('No divisor up to 9.'));
    const completion = masks('gptoss', convo, { target: 'completion' });
    assert.equal(trainedTokens(completion).slice(0, 3).join(''), '<|channel|>analysis<|message|>');
    assert.deepEqual(trainedTokens(completion).slice(-3), ['Yes', '.', '<|return|>']);
  });

  test("gpt-oss: strftime_now prints the clock's date into the system message, which is scaffolding", () => {
    const a = masks('gptoss', HI);
    const b = masks('gptoss', HI, {}, { now: () => new Date(2031, 0, 9) });
    assert.match(b.chat.text, /Current date: 2031-01-09\n/);
    assert.equal(b.answer.trained_tokens, a.answer.trained_tokens);
  });

  test("Llama 3.1: a system message joins the template's system block after the dates; contents are trimmed", () => {
    const m = masks('llama3_1', [{ role: 'system', content: '  Be brief. ' }, ...HI]);
    assert.match(m.chat.text, /Today Date: 26 Jul 2024\n\nBe brief\.<\|eot_id\|>/);
    assert.equal(m.chat.display[m.chat.messages[0].header[0]], '<|start_header_id|>', 'the block is the system message\'s header');
    assert.ok(m.chat.notes.some((n) => n.id === 'markers_changed_render'));
  });

  test('Llama 3.1: a tool result is printed as ipython, JSON-quoted (a string is iterable in Jinja)', () => {
    const m = masks('llama3_1', [{ role: 'user', content: 'Weather?' }, { role: 'assistant', content: 'Checking.' }, { role: 'tool', content: '{"t": -3}' }, { role: 'assistant', content: 'Cold.' }]);
    assert.ok(m.chat.text.includes('<|start_header_id|>ipython<|end_header_id|>\n\n"{\\"t\\": -3}"<|eot_id|>'));
    assert.equal(m.answer.turns[2].role, 'tool');
  });

  test('known divergence: Llama 3.1 with builtin_tools needs the reject filter, which @huggingface/jinja 0.5.11 lacks', () => {
    // docs/semantics.md §8.8: Python renders "Tools: brave_search, wolfram_alpha"; here the render fails.
    assert.throws(
      () => analyseChat(nodeFamily('llama3_1'), HI, { kwargs: { builtin_tools: ['brave_search', 'wolfram_alpha'] }, now: NOW }),
      (e) => e.kind === 'render' && /reject/.test(e.message),
    );
  });
});

describe('{% generation %} blocks', () => {
  // A ChatML template written for this test, with the assistant's content and <|im_end|> inside
  // a generation block (as TRL's training templates do) and the header outside. The newline after
  // the block is printed by an expression: transformers renders with trim_blocks=True, so a
  // newline right after {% endgeneration %} would be swallowed, as after any block tag.
  const TEMPLATE =
    "{% for m in messages %}{% if m.role == 'assistant' %}<|im_start|>assistant\n{% generation %}{{ m.content }}<|im_end|>{% endgeneration %}{{ '\\n' }}" +
    "{% else %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endif %}{% endfor %}";

  test('the mask covers the block: content and <|im_end|>, not the header or the newline after it', () => {
    const m = masks('qwen3', HI, { target: 'generation' }, { template: TEMPLATE });
    assert.equal(m.chat.text, '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!<|im_end|>\n');
    assert.deepEqual(trainedTokens(m), ['Hello', '!', '<|im_end|>']);
    assert.ok(!warningIds(m).includes('generation_differs_from_roles'));
  });

  test('compared with role spans: with the end-of-turn left out of the role target, one token differs', () => {
    const m = masks('qwen3', HI, { target: 'generation', endOfTurn: 'never' }, { template: TEMPLATE });
    const w = m.answer.warnings.find((x) => x.id === 'generation_differs_from_roles');
    assert.deepEqual(w.positions, [m.chat.display.lastIndexOf('<|im_end|>')]);
  });

  test("the family's own templates have no block: all-zero mask, as transformers returns", () => {
    const m = masks('llama3_1', HI, { target: 'generation' });
    assert.equal(m.answer.trained_tokens, 0);
    assert.ok(warningIds(m).includes('no_generation_blocks'));
  });
});
