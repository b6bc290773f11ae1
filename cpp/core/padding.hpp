// padding.hpp — how long the padded rows are, which side the pads go on, and truncation,
// following transformers' PreTrainedTokenizerBase._pad (docs/semantics.md §2.1, §2.2, §2.4) and
// DataCollatorForSeq2Seq's own label padding (§3.2).
//
// Not here: what the pads' labels or mask values are (labels.cpp, attention_mask.cpp).
#pragma once

#include <vector>

#include "batch.hpp"

namespace masklab {

// Cuts a feature (input_ids, its parallel arrays, and labels of their own length) to max_length
// on the given side and returns how many tokens were removed.
// Example: [1,2,3,4,5], max_length 3, side Left -> [3,4,5], returns 2.
int truncate_feature(Feature& feature, int max_length, Side side);

// The padded length T of every row.
//   Longest: the longest row; MaxLength: max_length (a longer row is an error unless truncated);
//   DoNotPad: rows must already be equal. pad_to_multiple_of then rounds up, as _pad does.
// Example: lengths {3,5}, Longest, pad_to_multiple_of 4 -> 8.
// Throws InputError naming the offending row, or the option (max_length, pad_to_multiple_of)
// that would make B * T exceed kMaxBatchTokens.
// `field` names what is measured in errors: "input_ids" (tokens) or "labels" (seq2seq labels,
// padded to the longest label independently of the inputs, as DataCollatorForSeq2Seq does).
int padded_length(const std::vector<int>& lengths, const CollateOptions& options,
                  const char* field = "input_ids");

// The most tokens a padded batch may hold (B * T): beyond this a request is a mistake, and
// honouring it would only freeze the browser tab.
constexpr long long kMaxBatchTokens = 1 << 20;

// Pads one row to length T with `value` on `side`.
// Example: pad_row({7,8}, 4, 0, Side::Left) -> {0,0,7,8}.
std::vector<int> pad_row(const std::vector<int>& row, int T, int value, Side side);

// Rounds n up to a multiple of m (m >= 1), in 64 bits so INT_MAX cannot overflow.
// Example: round_up(5, 4) -> 8.
long long round_up(long long n, long long m);

}  // namespace masklab
