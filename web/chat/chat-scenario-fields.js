// chat-scenario-fields.js — the fields one side of a chat "See it break" may set, in the core's
// spelling. Its own tiny module so the content compiler can check exercise files without loading
// the tokenizer and template libraries (chat-scenario.js uses it too).

export const SIDE_FIELDS = [
  'target', 'end_of_turn', 'train_role_headers', 'pad_masking', 'pad', 'eos_token',
  'add_special_tokens', 'max_length', 'response_template', 'instruction_template',
];
