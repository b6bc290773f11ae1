// train_bugs.hpp — the collator bugs the Train page can run, each as a pair of recipes: how the
// buggy run and the fixed run turn the same examples into a batch and a loss.
//
// A recipe is only a choice among rules that already exist: collate options (padding side,
// attention-mask policy, label policy, position ids — collate.cpp and friends), whether the
// examples' completion_mask is kept, the reduction (loss.cpp) and how micro-batches are combined
// (the two ways accumulation.cpp compares). Nothing here computes anything.
// docs/semantics.md §9.5 says what each bug changes and why.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "batch.hpp"
#include "loss.hpp"

namespace masklab {

enum class TrainBug {
  PadsTrained,             // labels = input_ids: every pad is a target
  PadEosMasked,            // pad == eos, labels masked where id == pad: no EOS target survives
  AllOnesMask,             // attention_mask all ones, right padding (a causal model cannot tell)
  LeftPadArangePositions,  // left padding, position_ids 0..T-1 instead of from the mask
  PromptTrained,           // the completion mask is dropped: prompt tokens are targets
  TokenVsExampleMean,      // mean of per-example means instead of the token mean
  GradAccumMeanOfMeans     // mean of micro-batch means instead of the global token mean
};

// The names the CLI, the URL and the page use, in this order.
const std::vector<std::string_view>& train_bug_names();
std::string_view train_bug_name(TrainBug bug);
std::optional<TrainBug> parse_train_bug(std::string_view name);

struct RunRecipe {
  CollateOptions collate;              // how the collator builds the batch
  bool completion_only = true;         // keep completion_mask: only the answer is trained
  Reduction reduction = Reduction::Mean;  // Mean or PerExampleMean, within one micro-batch
  int micro_batches = 1;               // the step's rows are split into this many micro-batches
  bool mean_of_means = false;          // with micro-batches: average their means (the Trainer
                                       // before transformers 4.46) instead of sum / all targets
};

struct BugRecipes {
  RunRecipe buggy, fixed;
};

// Example: PadEosMasked -> both runs pad with eos (id 2); buggy labels by value (mask_pad_id),
// fixed by position (mask_padding).
BugRecipes bug_recipes(TrainBug bug);

}  // namespace masklab
