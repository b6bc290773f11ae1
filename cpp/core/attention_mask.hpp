// attention_mask.hpp — the three ways a collator can fill attention_mask.
//
// The attention mask decides what a position may *read*; it never decides what is scored
// (that is the labels' -100). See docs/semantics.md §1.3 and §2.3.
#pragma once

#include <optional>

#include "batch.hpp"

namespace masklab {

// Mask value for one position. `given` is the example's own attention_mask value at a real
// token (1 when it has none): FromLengths keeps it, as tokenizer.pad does since transformers
// v4.12 (PR #13926); the other policies build their own. Without a pad id nothing equals it.
// Example: pad == eos == 2, a real EOS (is_pad false, id 2):
//   FromLengths -> 1, AllOnes -> 1, InputIdsNePad -> 0 (the real EOS is hidden).
int attention_mask_value(AttentionMaskPolicy policy, bool is_pad, int id, std::optional<int> pad_token_id,
                         int given = 1);

}  // namespace masklab
