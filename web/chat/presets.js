// presets.js — the prepared conversations of the Chat masks page: short enough to read, each
// chosen to show something (multi-turn history, a tool turn, reasoning, code, a quoted chat
// header). The page can batch several of them. Plain data.

export const PRESETS = [
  {
    id: 'capitals',
    label: 'Two questions with a system prompt',
    messages: [
      { role: 'system', content: 'You are a terse geography tutor.' },
      { role: 'user', content: 'What is the capital of France?' },
      { role: 'assistant', content: 'Paris.' },
      { role: 'user', content: 'And of Italy?' },
      { role: 'assistant', content: 'Rome.' },
    ],
  },
  {
    id: 'reasoning',
    label: 'Answers with reasoning (<think> … </think>)',
    messages: [
      { role: 'user', content: 'Is 91 prime?' },
      { role: 'assistant', content: '<think>\n91 = 7 × 13.\n</think>\n\nNo: 91 = 7 × 13.' },
      { role: 'user', content: 'Is 97 prime?' },
      { role: 'assistant', content: '<think>\nNo divisor up to 9 works.\n</think>\n\nYes.' },
    ],
  },
  {
    id: 'tool',
    label: 'A tool result between two answers',
    messages: [
      { role: 'user', content: 'What is the weather in Oslo?' },
      { role: 'assistant', content: 'Let me check the forecast.' },
      { role: 'tool', content: '{"city": "Oslo", "temp_c": -3, "sky": "snow"}' },
      { role: 'assistant', content: 'It is -3 °C and snowing in Oslo.' },
    ],
  },
  {
    id: 'code',
    label: 'A code answer',
    messages: [
      { role: 'user', content: 'Print hello in Python.' },
      { role: 'assistant', content: '```python\nprint("hello")\n```' },
    ],
  },
  {
    // In Qwen3 (ChatML) the quoted header is the template's own ids: a response-template search
    // finds it inside the user's text (docs/semantics.md §8.5).
    id: 'quoted',
    label: 'A user quoting a chat log (ChatML headers in the text)',
    messages: [
      { role: 'user', content: 'My log has this line:\n<|im_start|>assistant\nOK\nWhat is it?' },
      { role: 'assistant', content: 'A chat header: the next message is the assistant’s.' },
    ],
  },
  {
    id: 'short',
    label: 'One short exchange',
    messages: [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ],
  },
];

export const DEFAULT_PRESET = 'capitals';

export function presetById(id) {
  return PRESETS.find((p) => p.id === id) ?? null;
}
