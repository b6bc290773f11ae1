// loss.hpp — token cross-entropy with ignore_index, the causal shift, and six reductions,
// matching torch.nn.functional.cross_entropy and transformers' ForCausalLMLoss
// (docs/semantics.md §1.1, §1.2, §7.1), plus the hand-written masked mean of §7.3.
//
// Where PyTorch would hand back NaN (a mean over zero targets, an empty row under the mean of
// row means, num_items_in_batch = 0) the result has no loss and says why instead: a silent
// NaN is exactly the bug the site teaches about. The gradient follows PyTorch's autograd rules
// entry by entry, including where they give exact zeros next to a NaN loss or NaN gradients
// (§7.3); NaN and inf entries are counted, never returned. Computed in double; log-softmax works
// relative to the row max ((x - m) - log z), so logits up to ±1.8e308 give exact losses and
// gradients; a loss beyond the double range is no loss, with the reason (PyTorch would give inf).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "batch.hpp"

namespace masklab {

enum class Reduction {
  Mean,            // sum / number of targets (PyTorch 'mean')
  Sum,             // PyTorch 'sum'; 0 when there is no target
  None,            // one loss per token (PyTorch 'none'); no scalar
  PerExampleMean,  // mean over rows of each row's token mean
  SumOverNumItems, // sum / num_items_in_batch (transformers fixed_cross_entropy)
  MaskedMean       // (nll * keep).sum() / keep.sum(), written by hand (§7.3)
};

// Where the per-token loss of a hand-written reduction (MaskedMean, PerExampleMean) comes from.
enum class PerTokenLoss {
  CrossEntropy,     // F.cross_entropy(..., reduction="none"): 0 at ignored targets, and its
                    // backward writes nothing there (§1.2)
  LogSoftmaxGather  // -log_softmax(logits).gather(-1, labels.clamp(min=0)): a real loss at
                    // ignored positions, which only the multiplication by keep hides
};

// Logits the caller lends for one call instead of copying them into LossInput::logits: the
// typed-array path's buffer (float64, or float32 widened a row at a time), read, never kept.
struct BorrowedLogits {
  const double* f64 = nullptr;  // at most one of f64 and f32 is set
  const float* f32 = nullptr;
  std::size_t size = 0;
  bool empty() const { return f64 == nullptr && f32 == nullptr; }
};

struct LossInput {
  int B = 0, T = 0, V = 0;
  std::vector<double> logits;  // [B,T,V]; empty when `borrowed` holds them
  BorrowedLogits borrowed;     // [B,T,V] (typed path); the maths is the same either way
  std::vector<int> labels;     // [B,T] unshifted, aligned with input_ids; ignore_index = not scored
  bool shift = true;           // score logits[t] against labels[t+1], like ForCausalLMLoss
  int ignore_index = kIgnoreIndex;
  Reduction reduction = Reduction::Mean;
  std::optional<double> num_items_in_batch;  // required for SumOverNumItems
  bool gradient = false;                     // also return d loss / d logits
  PerTokenLoss per_token_loss = PerTokenLoss::CrossEntropy;  // MaskedMean / PerExampleMean only
};

struct LossResult {
  std::optional<double> loss;        // absent: see null_reason
  std::string null_reason;           // why there is no scalar loss ("" when there is one)
  int num_targets = 0;
  double sum = 0;                    // summed token losses
  std::vector<double> per_token;     // [B,T] loss at logit position t; 0 where nothing is scored
  std::vector<int> targets;          // [B,T] target id scored at logit t, or ignore_index
  std::vector<std::optional<double>> per_example_loss;  // [B] row mean; absent for a row with none
  std::vector<int> per_example_targets;                 // [B]
  // [B] each row's summed token losses: minus the log-probability of the row's targets, the
  // per-sequence quantity DPO compares (docs/semantics.md §7.4). 0 for a row with no target.
  std::vector<double> per_example_sum;
  // [B] d loss / d (one scored token's loss) for a token of row b: how much a token of that row
  // counts under the reduction (Mean 1/N, Sum 1, PerExampleMean 1/(B N_b), SumOverNumItems
  // 1/num_items_in_batch). Absent when there is no scalar loss (docs/semantics.md §7.4).
  std::vector<std::optional<double>> per_example_token_weight;
  std::vector<int> rows_without_targets;
  // When the gradient was asked: d loss / d logits as PyTorch's autograd computes it.
  std::vector<double> gradient;      // [B,T,V]; empty when an entry is NaN or infinite
  int gradient_nan_count = 0;        // entries that are NaN in PyTorch
  int gradient_inf_count = 0;        // entries that are +-inf in PyTorch
  std::optional<double> gradient_max_abs;  // max |g|, as g.abs().max(); absent unless all finite
  std::optional<double> gradient_norm;     // L2 norm, as g.norm(); absent unless all finite
  std::string gradient_null_reason;  // why `gradient` is empty ("" when it is returned)
};

// Throws InputError for bad shapes, non-finite logits, labels outside [0, V), bad options.
// Example: B=1, T=2, V=2, logits all 0, labels [-100, 1], shift ->
//   one target (logit 0 against label 1), loss ln 2.
// Example (§7.3): labels all -100, MaskedMean, gradient -> no loss (0/0); with CrossEntropy the
//   gradient is exactly 0 everywhere, with LogSoftmaxGather every entry it reaches is NaN.
LossResult cross_entropy(const LossInput& input);

// Target scored at logit position t of row b (ignore_index when none).
int target_at(const LossInput& input, int b, int t);

}  // namespace masklab
