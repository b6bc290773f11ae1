// attention.hpp — single-head scaled dot-product attention with a causal mask and a key
// padding mask, the way transformers combines them (docs/semantics.md §6.1), with SDPA's
// optional `scale` (§6.3).
//
// A query that can see no key at all (a left pad under a causal mask) gets zero weights and a
// zero output by default, as PyTorch >= 2.5's SDPA gives, and is listed in fully_masked_queries.
// On request it is instead the NaN row a plain softmax over -inf gives (§6.2); the result marks
// such rows and never holds a NaN. Not a model: no projections, no heads, no dropout.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace masklab {

// What a query that sees no key gets (docs/semantics.md §6.2).
enum class FullyMaskedRows {
  Zeros,  // torch >= 2.5 SDPA (_safe_softmax, pytorch PR #133882): weights 0, output 0
  NaN     // softmax over a row of -inf (an eager masked_fill(-inf), SDPA's math path before 2.5)
};

struct AttentionInput {
  int B = 0, T = 0, D = 0;
  std::vector<double> q, k, v;         // [B,T,D]
  std::vector<int> attention_mask;     // [B,T] 1 = key may be read; empty = all ones
  std::vector<int> segment_ids;        // [B,T] optional: keys of another packed example are hidden
  bool causal = true;
  std::optional<double> scale;         // SDPA's scale; absent = 1 / sqrt(D)
  FullyMaskedRows fully_masked_rows = FullyMaskedRows::Zeros;
};

struct AttentionResult {
  double scale = 0;                    // the factor the scores were multiplied by
  std::vector<double> scores;          // [B,T,T] q·k · scale, before masking
  std::vector<std::uint8_t> visible;   // [B,T,T] 1 where query i may read key j
  std::vector<double> weights;         // [B,T,T] softmax over visible keys; rows sum to 1 (or 0)
  std::vector<double> output;          // [B,T,D] weights · v
  std::vector<std::pair<int, int>> fully_masked_queries;  // (b, i) with no visible key
  std::string scores_null_reason;      // set when a score is beyond the double range (see attend)
  bool fully_masked_rows_are_nan = false;  // their weights and output rows are NaN, not 0
};

// A score q·k·scale beyond ±1.8e308 (q = k = 1e200) cannot be a double: it is printed null and
// scores_null_reason says so, but that query's weights and output are still exact — they are
// computed from q and k scaled by powers of two, which softmax does not see.
// Example: T=2, causal, mask [1,1]: query 0 sees key 0 only (weight 1); query 1 sees both.
// Throws InputError for bad shapes, non-finite q/k/v or a non-finite scale.
AttentionResult attend(const AttentionInput& input);

}  // namespace masklab
