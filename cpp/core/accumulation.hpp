// accumulation.hpp — gradient accumulation: the mean of micro-batch means (the Trainer before
// transformers 4.46) against the global token mean (sum of all token losses / all targets),
// docs/semantics.md §7.2. They agree only when every micro-batch has the same number of
// targets.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loss.hpp"

namespace masklab {

struct MicroBatchFigures {
  double sum = 0;
  int num_targets = 0;          // scored after the shift
  int label_tokens = 0;         // labels != ignore_index, unshifted (the pre-2026 count)
  std::optional<double> mean;   // sum / num_targets; absent when it has none
};

struct AccumulationResult {
  std::vector<MicroBatchFigures> micro_batches;
  std::optional<double> mean_of_means;      // (1/G) Σ S_i / N_i — absent if any N_i = 0
  std::optional<double> global_token_mean;  // Σ S_i / Σ N_i — absent if Σ N_i = 0
  int num_items_in_batch = 0;               // Σ N_i
  int num_items_unshifted = 0;              // Σ label_tokens_i: one too many per row before PR #46204
  std::string null_reason;
};

// Each input's reduction is ignored (sums are taken). Throws InputError naming
// "micro_batches[i]…" for bad input.
// Example: micro-batch A has 2 targets of loss ln 2, B has 8 of loss ln 4 ->
//   mean_of_means 1.5 ln 2, global_token_mean 1.8 ln 2.
AccumulationResult accumulate(const std::vector<LossInput>& micro_batches);

}  // namespace masklab
