// inspect.cpp — see inspect.hpp.
#include "inspect.hpp"

#include <algorithm>
#include <string>

#include "collate.hpp"
#include "input_error.hpp"
#include "limits.hpp"
#include "positions.hpp"
#include "tiny_model.hpp"

namespace masklab {

namespace {

void check_cell(const Batch& batch, std::pair<int, int> cell, const std::string& field) {
  if (cell.first < 0 || cell.first >= batch.B || cell.second < 0 || cell.second >= batch.T)
    throw InputError(field, "cell [" + std::to_string(cell.first) + ", " + std::to_string(cell.second) +
                                "] is outside the batch (" + std::to_string(batch.B) + " rows x " +
                                std::to_string(batch.T) + " positions)");
}

void apply_toggles(Batch& batch, const InspectInput& in) {
  for (size_t i = 0; i < in.toggle_labels.size(); ++i) {
    auto cell = in.toggle_labels[i];
    check_cell(batch, cell, "toggle_labels[" + std::to_string(i) + "]");
    const int at = batch.at(cell.first, cell.second);
    if (!is_trained_label(batch.labels[at])) {
      batch.labels[at] = batch.input_ids[at];
      batch.label_reasons[at] = IgnoreReason::None;
    } else {
      batch.labels[at] = kIgnoreIndex;
      batch.label_reasons[at] = IgnoreReason::User;
    }
  }
  if (!in.toggle_attention_mask.empty() && !batch.has_attention_mask)
    throw InputError("toggle_attention_mask", "this batch has no attention_mask (flatten packing passes none)");
  std::vector<bool> touched(batch.B, false);
  for (size_t i = 0; i < in.toggle_attention_mask.size(); ++i) {
    auto cell = in.toggle_attention_mask[i];
    check_cell(batch, cell, "toggle_attention_mask[" + std::to_string(i) + "]");
    int& m = batch.attention_mask[batch.at(cell.first, cell.second)];
    m = m ? 0 : 1;
    touched[cell.first] = true;
  }
  if (in.options.position_ids == PositionPolicy::FromMask && in.options.packing == Packing::None)
    for (int b = 0; b < batch.B; ++b) {
      if (!touched[b]) continue;
      std::vector<int> mask(batch.attention_mask.begin() + batch.at(b, 0),
                            batch.attention_mask.begin() + batch.at(b, 0) + batch.T);
      auto pos = position_ids_for_row(mask, PositionPolicy::FromMask);
      std::copy(pos.begin(), pos.end(), batch.position_ids.begin() + batch.at(b, 0));
    }
}

}  // namespace

InspectResult inspect(const InspectInput& in) {
  InspectResult r;
  r.batch = collate(in.features, in.options);
  if (r.batch.L != r.batch.T)
    throw InputError("features", "have labels of their own length (seq2seq, " + std::to_string(r.batch.L) +
                                     " label positions for " + std::to_string(r.batch.T) +
                                     " tokens); the grid draws one label under each token, so use the collate "
                                     "command for them");
  if (r.batch.T == 0) throw InputError("features", "are all empty: there is no position to show");
  if (r.batch.T > kMaxInspectPositions || r.batch.B > kMaxInspectRows)
    throw InputError("features", "the grid shows at most " + std::to_string(kMaxInspectRows) + " rows of " +
                                     std::to_string(kMaxInspectPositions) + " positions; this batch is " +
                                     std::to_string(r.batch.B) + " x " + std::to_string(r.batch.T) +
                                     " (use the collate and loss commands for big batches)");
  const std::vector<int> collated_labels = r.batch.labels;  // before the learner's edits
  apply_toggles(r.batch, in);
  Batch& batch = r.batch;
  for (int b = 0; b < batch.B; ++b) r.rows.push_back(row_figures(batch, b, in.options));

  // The tiny model's vocabulary is the ids this batch uses (plus the named vocab), renumbered
  // 0..K-1: a Llama-sized id such as 128009 must not cost a 128k x 128k bigram table.
  std::vector<int> ids(batch.input_ids);
  for (int y : batch.labels)
    if (is_trained_label(y)) ids.push_back(y);
  if (in.freeze_model)  // a frozen model is fitted on these
    for (int y : collated_labels)
      if (is_trained_label(y)) ids.push_back(y);
  if (in.options.pad_token_id) ids.push_back(*in.options.pad_token_id);
  if (in.options.eos_token_id) ids.push_back(*in.options.eos_token_id);
  for (int i = 0; i < static_cast<int>(in.vocab.size()); ++i) ids.push_back(i);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  auto compact = [&](int id) {
    return static_cast<int>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
  };
  r.V = static_cast<int>(ids.size());
  limit_request(in.vocab_from_text ? "text_features" : in.vocab.size() > ids.size() / 2 ? "vocab" : "features",
                "tiny-model logits (B × T × V = " + shape_text({batch.B, batch.T, r.V}) +
                    ", V = the distinct token ids and vocab names)",
                product({batch.B, batch.T, r.V}), kMaxInspectModelValues);
  Batch model_batch = batch;
  for (int& id : model_batch.input_ids) id = compact(id);
  // Any negative label is ignored, as by a loss told the same ignore_index (docs/semantics.md §3.2).
  for (int& y : model_batch.labels) y = is_trained_label(y) ? compact(y) : kIgnoreIndex;

  LossInput li;
  li.B = batch.B;
  li.T = batch.T;
  li.V = r.V;
  Batch fit_batch = model_batch;  // the pairs the model learns from
  if (in.freeze_model) {
    fit_batch.labels = collated_labels;
    for (int& y : fit_batch.labels) y = is_trained_label(y) ? compact(y) : kIgnoreIndex;
  }
  li.logits = bigram_logits(fit_batch, r.V, in.options.shift);
  li.labels = model_batch.labels;
  li.shift = in.options.shift;
  li.reduction = in.reduction;
  li.num_items_in_batch = in.num_items_in_batch;
  li.gradient = in.gradient;
  li.per_token_loss = in.per_token_loss;
  r.loss = cross_entropy(li);
  for (int& y : r.loss.targets)
    if (y != kIgnoreIndex) y = ids[y];  // report targets as the batch's own ids

  // The same logits scored at every shifted position, as labels = input_ids would (token mean).
  LossInput all = std::move(li);
  all.reduction = Reduction::Mean;
  all.labels = model_batch.input_ids;
  all.gradient = false;
  all.per_token_loss = PerTokenLoss::CrossEntropy;
  LossResult everything = cross_entropy(all);

  InspectSummary& s = r.summary;
  for (int b = 0; b < batch.B; ++b)
    for (int t = 0; t < batch.T; ++t) {
      const int i = batch.at(b, t);
      if (r.loss.targets[i] == kIgnoreIndex) continue;
      const int target_pos = in.options.shift ? t + 1 : t;
      if (batch.is_pad[batch.at(b, target_pos)]) {
        ++s.pad_targets;
        s.sum_pad += r.loss.per_token[i];
      } else {
        ++s.real_targets;
        s.sum_real += r.loss.per_token[i];
      }
    }
  s.targets = r.loss.num_targets;
  s.loss = r.loss.loss;
  if (s.real_targets) s.loss_real = s.sum_real / s.real_targets;
  if (s.pad_targets) s.loss_pad = s.sum_pad / s.pad_targets;
  s.loss_all_positions = everything.loss;
  int pads = 0;
  for (auto p : batch.is_pad) pads += p;
  s.pad_share = static_cast<double>(pads) / (static_cast<double>(batch.B) * batch.T);
  if (s.targets) s.dilution_factor = static_cast<double>(s.real_targets) / s.targets;

  if (!in.with_attention) return r;
  AttentionInput ai;
  ai.B = batch.B;
  ai.T = batch.T;
  ai.D = kEmbeddingDim;
  ai.q = embed(batch);
  ai.k = ai.q;
  ai.v = ai.q;
  ai.causal = in.causal;
  ai.fully_masked_rows = in.fully_masked_rows;
  const bool all_ones = std::all_of(batch.attention_mask.begin(), batch.attention_mask.end(), [](int m) { return m == 1; });
  const bool mask_reaches_kernel =
      batch.has_attention_mask && !(in.attn_implementation == AttentionImplementation::FlashAttention2 && all_ones);
  if (mask_reaches_kernel) ai.attention_mask = batch.attention_mask;
  else ai.segment_ids = documents_from_positions(batch.position_ids, batch.B, batch.T);
  r.attention = attend(ai);
  return r;
}

}  // namespace masklab
