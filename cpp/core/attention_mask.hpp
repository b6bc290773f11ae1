// attention_mask.hpp — the three ways a collator can fill attention_mask.
//
// The attention mask decides what a position may *read*; it never decides what is scored
// (that is the labels' -100). See shared/notes/semantics.md §0.4 and §3.
#pragma once

#include "batch.hpp"

namespace masklab {

// Mask value for one position.
// Example: pad == eos == 2, a real EOS (is_pad false, id 2):
//   FromLengths -> 1, AllOnes -> 1, InputIdsNePad -> 0 (the real EOS is hidden).
int attention_mask_value(AttentionMaskPolicy policy, bool is_pad, int id, int pad_token_id);

}  // namespace masklab
