// packing.hpp — several examples in one row, done right and done wrong.
//
// Flatten follows transformers' DataCollatorWithFlattening (docs/semantics.md §4.1): one row,
// position_ids restarting at 0 per example, the first label of each example set to -100 so
// that the last token of one example is never trained to predict the first of the next, no
// attention_mask and no padding. PaddingFree follows TRL's DataCollatorForLanguageModeling with
// padding_free=True (§4.2): the same, except that an already-packed example's seq_lengths
// restart the positions at every document inside it, and pad_to_multiple_of pads the row's tail
// (pad id, label -100, position 0). PaddingFreeLegacy is that collator in TRL 0.20-0.23: boundary
// labels kept and, without seq_lengths, a mask of 1 on tokens and 0 on the tail pads — the mask
// that TRL PR #4170 removed because it hid the position resets from FlashAttention-2.
// ConcatUnsafe is the classic mistake (§4.4): an all-ones mask,
// positions running on, boundary labels kept — documents read and predict each other.
// Not here: bin-packing several rows (BFD); we always pack the whole batch into one row.
#pragma once

#include <vector>

#include "batch.hpp"

namespace masklab {

// features: already validated and truncated; truncated[i] = tokens cut from features[i].
// Example (Flatten): [5,6] and [7,8,9] -> input_ids [[5,6,7,8,9]],
//   position_ids [[0,1,0,1,2]], labels [[-100,6,-100,8,9]].
// Example (PaddingFree, pad 0, pad_to_multiple_of 4): [5,6,7] with seq_lengths [1,2] and [8] ->
//   input_ids [[5,6,7,8]], position_ids [[0,0,1,0]], labels [[-100,-100,7,-100]]; a fifth token
//   would make T = 8 with three tail pads at position 0.
// Throws InputError when the tail needs a pad id that was not given.
Batch pack(const std::vector<Feature>& features, const std::vector<int>& truncated,
           const CollateOptions& options);

}  // namespace masklab
