// labels.hpp — the label policies: which positions are trained, and why the others are not.
//
// Rules from docs/semantics.md §3.1 (mask by value), §3.2 and §3.3 (mask by position), TRL's
// completion_mask / assistant_masks (§3.3). Labels stay unshifted, aligned with input_ids: the
// loss shifts them (§1.1). Under Given they may have their own length (seq2seq, §3.2).
#pragma once

#include <utility>
#include <vector>

#include "batch.hpp"

namespace masklab {

struct RowLabels {
  std::vector<int> labels;             // [n] negative = not trained
  std::vector<IgnoreReason> reasons;   // [n]
};

// Labels for the real tokens of one example, before padding.
// Example: pad == eos == 2, input_ids [5,6,2], MaskPadId -> labels [5,6,-100], reasons
//   [None, None, PadId] (the real EOS is lost); MaskPadding -> [5,6,2] (kept).
// A completion_mask or assistant_masks of 0 then sets -100 (reason Prompt) on top.
RowLabels label_real_tokens(const Feature& feature, const CollateOptions& options);

// The label, and its reason, that a pad position gets under the options' policy.
// Example: InputIds with pad id 0 -> {0, None}: the pad is a trained target.
std::pair<int, IgnoreReason> pad_label(const CollateOptions& options);

}  // namespace masklab
