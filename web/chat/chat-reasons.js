// chat-reasons.js — the chat masks' label reasons in the token grid (web/grid/token-grid.js): for
// the Chat masks page's batch, where the collator receives the labels as given.
//
//   createTokenGrid(box, { reasons: CHAT_REASONS });
//   grid.update({ batch: { ...batch, label_reasons: withChatReasons(batch, answers) }, tokens });

import { CHIP_TEXT } from './token-chips.js';

// The chat labels' reasons, in the grid's form (a glyph, a short word, a spoken phrase): a cell
// the collator kept as given (-100 from the chat masks) shows why the chat masks put it there.
const GLYPHS = { system: '⚙', user: '☺', tool: '⚒', developer: '⚙', role_header: '⌂', scaffolding: '⋯', end_of_turn: '⏹', earlier_turn: '↶', prompt: '¶', not_generation: '∉', template_search: '⌕', pad_id: '≡', turn_range: '↔' };
export const CHAT_REASONS = Object.fromEntries(
  Object.entries(CHIP_TEXT.reasons).map(([key, short]) => [key, { glyph: GLYPHS[key] ?? '·', short, spoken: CHIP_TEXT.reasonSpoken[key] ?? short }]),
);

// The batch's label reasons with every `given` cell replaced by the chat reason of the token it
// holds: each batch row is walked, and its real (non-pad) positions take the conversations'
// tokens in order (row b holds conversation b; flatten puts them all in row 0).
export function withChatReasons(batch, answers) {
  let k = 0;
  let t = 0;
  return batch.label_reasons.map((row, b) => {
    if (batch.input_ids.length === answers.length) [k, t] = [b, 0];
    return row.map((reason, p) => {
      if (batch.is_pad[b][p]) return reason;
      while (k < answers.length && t >= answers[k].label_reasons.length) [k, t] = [k + 1, 0];
      const chat = answers[k]?.label_reasons[t] ?? '';
      t += 1;
      return reason === 'given' && chat ? chat : reason;
    });
  });
}

