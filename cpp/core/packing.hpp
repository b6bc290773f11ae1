// packing.hpp — several examples in one row, done right and done wrong.
//
// Flatten follows transformers' DataCollatorWithFlattening (semantics.md §1.5): one row,
// position_ids restarting at 0 per example, the first label of each example set to -100 so
// that the last token of one example is never trained to predict the first of the next, and
// no attention_mask (a kernel isolates examples from position_ids). ConcatUnsafe is the
// classic mistake (old ConstantLengthDataset style): an all-ones mask, positions running on,
// boundary labels kept — documents read and predict each other.
// Not here: bin-packing several rows (BFD); we always pack the whole batch into one row.
#pragma once

#include <vector>

#include "batch.hpp"

namespace masklab {

// features: already validated and truncated; truncated[i] = tokens cut from features[i].
// Example (Flatten): [5,6] and [7,8,9] -> input_ids [[5,6,7,8,9]],
//   position_ids [[0,1,0,1,2]], labels [[-100,6,-100,8,9]].
Batch pack(const std::vector<Feature>& features, const std::vector<int>& truncated,
           const CollateOptions& options);

}  // namespace masklab
