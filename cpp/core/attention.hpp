// attention.hpp — single-head scaled dot-product attention with a causal mask and a key
// padding mask, the way transformers combines them (shared/notes/semantics.md §3).
//
// A query that can see no key at all (a left pad under a causal mask) gets zero weights and a
// zero output, as PyTorch >= 2.5's SDPA gives, and is listed in fully_masked_queries — never NaN.
// Not a model: no projections, no heads, no dropout.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace masklab {

struct AttentionInput {
  int B = 0, T = 0, D = 0;
  std::vector<double> q, k, v;         // [B,T,D]
  std::vector<int> attention_mask;     // [B,T] 1 = key may be read; empty = all ones
  std::vector<int> segment_ids;        // [B,T] optional: keys of another packed example are hidden
  bool causal = true;
};

struct AttentionResult {
  std::vector<double> scores;          // [B,T,T] q·k / sqrt(D), before masking
  std::vector<std::uint8_t> visible;   // [B,T,T] 1 where query i may read key j
  std::vector<double> weights;         // [B,T,T] softmax over visible keys; rows sum to 1 (or 0)
  std::vector<double> output;          // [B,T,D] weights · v
  std::vector<std::pair<int, int>> fully_masked_queries;  // (b, i) with no visible key
  std::string scores_null_reason;      // set when a score is beyond the double range (see attend)
};

// A score q·k/√D beyond ±1.8e308 (q = k = 1e200) cannot be a double: it is printed null and
// scores_null_reason says so, but that query's weights and output are still exact — they are
// computed from q and k scaled by powers of two, which softmax does not see.
// Example: T=2, causal, mask [1,1]: query 0 sees key 0 only (weight 1); query 1 sees both.
AttentionResult attend(const AttentionInput& input);

}  // namespace masklab
