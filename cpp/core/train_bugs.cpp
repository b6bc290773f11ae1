// train_bugs.cpp — see train_bugs.hpp.
#include "train_bugs.hpp"

#include "synthetic_task.hpp"

namespace masklab {

namespace {

// What a careful SFT setup does: right padding to the longest row, mask from lengths, pads
// labelled -100 by position, positions 0..n-1 on the real tokens, only the answer trained,
// token mean over the whole step.
RunRecipe correct_recipe() {
  RunRecipe r;
  r.collate.pad_token_id = task::kPad;
  r.collate.eos_token_id = task::kEos;
  r.collate.vocab_size = task::kVocabSize;
  return r;
}

constexpr int kAccumulationMicroBatches = 4;

}  // namespace

const std::vector<std::string_view>& train_bug_names() {
  static const std::vector<std::string_view> names = {
      "pads_trained",  "pad_eos_masked", "all_ones_mask", "left_pad_arange_positions",
      "prompt_trained", "token_vs_example_mean", "grad_accum_mean_of_means"};
  return names;
}

std::string_view train_bug_name(TrainBug bug) { return train_bug_names()[static_cast<int>(bug)]; }

std::optional<TrainBug> parse_train_bug(std::string_view name) {
  const auto& names = train_bug_names();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<TrainBug>(i);
  return std::nullopt;
}

BugRecipes bug_recipes(TrainBug bug) {
  BugRecipes r{correct_recipe(), correct_recipe()};
  switch (bug) {
    case TrainBug::PadsTrained:
      r.buggy.collate.label_policy = LabelPolicy::InputIds;
      break;
    case TrainBug::PadEosMasked:
      r.buggy.collate.pad_token_id = r.fixed.collate.pad_token_id = task::kEos;
      r.buggy.collate.label_policy = LabelPolicy::MaskPadId;
      break;
    case TrainBug::AllOnesMask:
      r.buggy.collate.attention_mask_policy = AttentionMaskPolicy::AllOnes;
      break;
    case TrainBug::LeftPadArangePositions:
      r.buggy.collate.padding_side = r.fixed.collate.padding_side = Side::Left;
      r.buggy.collate.position_ids = PositionPolicy::Arange;
      r.fixed.collate.position_ids = PositionPolicy::FromMask;
      break;
    case TrainBug::PromptTrained:
      r.buggy.completion_only = false;
      break;
    case TrainBug::TokenVsExampleMean:
      r.buggy.reduction = Reduction::PerExampleMean;
      break;
    case TrainBug::GradAccumMeanOfMeans:
      r.buggy.micro_batches = r.fixed.micro_batches = kAccumulationMicroBatches;
      r.buggy.mean_of_means = true;
      break;
  }
  return r;
}

}  // namespace masklab
