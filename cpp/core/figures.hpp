// figures.hpp — per-row counts the site and the CLI report about a collated batch.
//
// "targets" are the labels the loss will score: with the causal shift, label[t] is scored at
// logit t-1, so label[0] never is (docs/semantics.md §1.1). "label_tokens" is the unshifted
// count (labels that are not ignored) that transformers used as num_items_in_batch until 2026
// (§7.2). A negative label is never a target (§1.2); pad_targets are trained labels at label
// padding (§3.6).
#pragma once

#include <array>

#include "batch.hpp"

namespace masklab {

struct RowFigures {
  int real_tokens = 0;
  int pads = 0;
  int label_tokens = 0;  // trained labels (>= 0), unshifted
  int targets = 0;       // labels the loss scores (after the shift when options.shift)
  int pad_targets = 0;   // scored labels at label-padding positions: the label bug
  int eos_targets = 0;   // scored labels equal to eos_token_id at real positions
  std::array<int, 7> ignored{};  // count of -100 labels per IgnoreReason (index = enum value)
  double pad_share = 0;  // pads / T
  int truncated_tokens = 0;
};

// Example: labels [[5,6,2,-100]] (one pad), eos 2, shift -> real 3, pads 1, label_tokens 3,
//   targets 2 (6 and 2), eos_targets 1, ignored[padding] 1, pad_share 0.25.
RowFigures row_figures(const Batch& batch, int b, const CollateOptions& options);

// Whether label position t of a row is scored by the loss (t >= 1 under the shift).
inline bool is_scored_position(int t, bool shift) { return !shift || t >= 1; }

}  // namespace masklab
