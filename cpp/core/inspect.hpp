// inspect.hpp — everything the token grid shows for one configuration, in one call:
// collate, apply the learner's cell toggles, fit the tiny model, score the loss, attend.
//
// The site never re-derives a number in JavaScript; it asks this. Not here: JSON (requests.cpp)
// or tokenising text (tokenizer.cpp).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attention.hpp"
#include "batch.hpp"
#include "figures.hpp"
#include "loss.hpp"

namespace masklab {

constexpr int kMaxInspectRows = 16, kMaxInspectPositions = 256;
// One text of text_features may give this many tokens before truncation cuts it to a row.
constexpr int kMaxInspectTextTokens = 4096;

// Which transformers attention path reads the batch (docs/semantics.md §4.3).
enum class AttentionImplementation {
  Sdpa,             // sdpa / eager: a 2-D mask is applied as it is; without one, documents are
                    // found from position_ids (transformers PR #39194)
  FlashAttention2   // flash_attention_2: an all-ones mask is dropped and the documents come from
                    // position_ids; a mask with a 0 is used as it is (unpadding), joining them
};

struct InspectInput {
  std::vector<Feature> features;
  CollateOptions options;
  std::vector<std::string> vocab;                   // token text by id (may be empty)
  bool vocab_from_text = false;                     // vocab came from tokenising text_features
  std::vector<std::pair<int, int>> toggle_attention_mask;  // (b, t): 1 <-> 0
  std::vector<std::pair<int, int>> toggle_labels;          // (b, t): label <-> -100
  bool causal = true;
  // Fit the tiny model on the labels as collated, before toggle_labels: a toggle then changes
  // only the targets it touches. Off (the default), the model is refitted on the edited labels,
  // as training on them would, so other positions' losses move too.
  bool freeze_model = false;
  bool with_attention = true;                   // false: skip the attention view (it is T^2 per row)
  Reduction reduction = Reduction::Mean;        // how the reported loss is reduced
  std::optional<double> num_items_in_batch;     // for SumOverNumItems
  bool gradient = false;                        // summarise d loss / d logits (docs/semantics.md §7.3)
  PerTokenLoss per_token_loss = PerTokenLoss::CrossEntropy;  // for MaskedMean / PerExampleMean
  FullyMaskedRows fully_masked_rows = FullyMaskedRows::Zeros;  // docs/semantics.md §6.2
  AttentionImplementation attn_implementation = AttentionImplementation::Sdpa;  // §4.3
};

// The dilution, split by where the scored target sits (a real token or a pad).
struct InspectSummary {
  int targets = 0, real_targets = 0, pad_targets = 0;
  double sum_real = 0, sum_pad = 0;
  std::optional<double> loss;                     // what the trainer reports, under the request's reduction
  std::optional<double> loss_real;                // mean over targets at real positions
  std::optional<double> loss_pad;                 // mean over targets at pad positions
  std::optional<double> loss_all_positions;       // every shifted position scored (labels = input_ids)
  double pad_share = 0;                           // pads / (B*T)
  std::optional<double> dilution_factor;          // real_targets / targets: each real token's weight shrinks by it
};

struct InspectResult {
  Batch batch;
  std::vector<RowFigures> rows;
  int V = 0;  // size of the tiny model's vocabulary: the distinct ids the batch uses
  LossResult loss;
  AttentionResult attention;  // empty when !with_attention
  InspectSummary summary;
};

// Throws InputError (e.g. a toggle outside the batch).
InspectResult inspect(const InspectInput& input);

}  // namespace masklab
