// loss.hpp — token cross-entropy with ignore_index, the causal shift, and five reductions,
// matching torch.nn.functional.cross_entropy and transformers' ForCausalLMLoss
// (shared/notes/semantics.md §0.1, §0.3, §2).
//
// Where PyTorch would hand back NaN (a mean over zero targets, an empty row under the mean of
// row means, num_items_in_batch = 0) the result has no loss and says why instead: a silent
// NaN is exactly the bug the site teaches about. Computed in double; log-softmax works relative
// to the row max (log z - (x - m)), so logits up to ±1.8e308 give exact losses and gradients;
// a loss beyond the double range is no loss, with the reason (PyTorch would give inf).
#pragma once

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
  SumOverNumItems  // sum / num_items_in_batch (transformers fixed_cross_entropy)
};

struct LossInput {
  int B = 0, T = 0, V = 0;
  std::vector<double> logits;  // [B,T,V]
  std::vector<int> labels;     // [B,T] unshifted, aligned with input_ids; ignore_index = not scored
  bool shift = true;           // score logits[t] against labels[t+1], like ForCausalLMLoss
  int ignore_index = kIgnoreIndex;
  Reduction reduction = Reduction::Mean;
  std::optional<double> num_items_in_batch;  // required for SumOverNumItems
  bool gradient = false;                     // also return d loss / d logits
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
  std::vector<int> rows_without_targets;
  std::vector<double> gradient;      // [B,T,V] when asked and the loss is defined
};

// Throws InputError for bad shapes, non-finite logits, labels outside [0, V), bad options.
// Example: B=1, T=2, V=2, logits all 0, labels [-100, 1], shift ->
//   one target (logit 0 against label 1), loss ln 2.
LossResult cross_entropy(const LossInput& input);

// Target scored at logit position t of row b (ignore_index when none).
int target_at(const LossInput& input, int b, int t);

}  // namespace masklab
