// collate.hpp — features + options -> a rectangular batch, like a Hugging Face data collator.
//
// The steps, each in its own file: validate, truncate (padding.cpp), label the real tokens
// (labels.cpp), pad ids/labels/mask on one side (padding.cpp, attention_mask.cpp), derive
// position_ids (positions.cpp) — or pack everything into one row (packing.cpp).
#pragma once

#include <vector>

#include "batch.hpp"

namespace masklab {

// Throws InputError for any bad feature or option, naming it.
// Example: features [[5,6,2],[7,2]], pad 0, right padding, mask_padding ->
//   input_ids [[5,6,2],[7,2,0]], attention_mask [[1,1,1],[1,1,0]], labels [[5,6,2],[7,2,-100]].
Batch collate(std::vector<Feature> features, const CollateOptions& options);

// Checks options and features without collating (collate calls it first).
void validate_collate_input(const std::vector<Feature>& features, const CollateOptions& options);

}  // namespace masklab
