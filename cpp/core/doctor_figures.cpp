// doctor_figures.cpp — see doctor_figures.hpp.
#include "doctor_figures.hpp"

#include <algorithm>
#include <cstdint>

#include "batch.hpp"
#include "figures.hpp"
#include "tiny_model.hpp"

namespace masklab {

namespace {

// Row b of the pasted batch as a one-row Batch, for row_figures (figures.hpp).
Batch row_batch(const DoctorBatch& d, int b) {
  Batch one;
  one.B = 1;
  one.T = d.length[b];
  one.L = one.T;  // labels aligned with input_ids
  one.reserve_cells();
  for (int t = 0; t < one.T; ++t) {
    const int i = d.at(b, t);
    const bool pad = d.is_pad[i] != 0;
    const int label = d.labels ? (*d.labels)[i] : kIgnoreIndex;
    one.input_ids.push_back(d.input_ids[i]);
    one.labels.push_back(label);
    one.is_pad.push_back(pad ? 1 : 0);
    one.label_is_pad.push_back(pad ? 1 : 0);
    one.label_reasons.push_back(is_trained_label(label) ? IgnoreReason::None
                                                        : pad ? IgnoreReason::Padding : IgnoreReason::Given);
  }
  return one;
}

// The distinct ids the pasted cells use (inputs and trained labels): the bigram's vocabulary.
// A bitmap when the ids are below 2^24 (every tokenizer's are); a sorted list otherwise.
int vocabulary_size(const DoctorBatch& d) {
  int largest = 0;
  auto each_id = [&](auto visit) {
    for (int b = 0; b < d.B; ++b)
      for (int t = 0; t < d.length[b]; ++t) {
        visit(d.input_ids[d.at(b, t)]);
        if ((*d.labels)[d.at(b, t)] >= 0) visit((*d.labels)[d.at(b, t)]);
      }
  };
  each_id([&](int id) { largest = std::max(largest, id); });
  if (largest < (1 << 24)) {
    std::vector<std::uint64_t> seen(static_cast<size_t>(largest) / 64 + 1, 0);
    int distinct = 0;
    each_id([&](int id) {
      std::uint64_t& word = seen[static_cast<size_t>(id) / 64];
      const std::uint64_t bit = 1ull << (id % 64);
      distinct += (word & bit) ? 0 : 1;
      word |= bit;
    });
    return distinct;
  }
  std::vector<int> ids;
  each_id([&](int id) { ids.push_back(id); });
  std::sort(ids.begin(), ids.end());
  return static_cast<int>(std::unique(ids.begin(), ids.end()) - ids.begin());
}

// Every pair the loss scores, as the bigram's input: (input id at t, label at the scored
// position), held out when that position is a pad. Pairs never span PyTorch's "...".
struct ScoredPairs {
  std::vector<BigramPair> pairs;
  std::vector<int> row;          // [pairs] the pasted row
};

ScoredPairs scored_pairs(const DoctorBatch& d, bool shift) {
  ScoredPairs out;
  out.pairs.reserve(d.input_ids.size());
  out.row.reserve(d.input_ids.size());
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t) {
      const int src = shift ? t + 1 : t;
      if (src >= d.length[b] || (shift && src == d.position_gap)) continue;
      const int y = (*d.labels)[d.at(b, src)];
      if (y < 0) continue;
      out.pairs.push_back({d.input_ids[d.at(b, t)], y, d.is_pad[d.at(b, src)] != 0});
      out.row.push_back(b);
    }
  return out;
}

struct Sum {
  double total = 0;
  int count = 0;
  void add(double x) {
    total += x;
    ++count;
  }
  double mean() const { return total / count; }
};

}  // namespace

DoctorFigures compute_figures(const DoctorBatch& d, bool shift) {
  DoctorFigures f;
  f.rows_shown = d.B;
  f.positions_shown = d.T;
  f.partial = d.elided();
  if (d.row_gap < 0) f.rows = d.B;
  if (d.position_gap < 0) f.positions = d.T;
  f.pad_side = pad_side_name(d.pad_side);
  f.padding_from = d.pad_source == PadSource::AttentionMask ? "attention_mask"
                   : d.pad_source == PadSource::PadId   ? "pad_token_id"
                   : d.pad_source == PadSource::Unpadded ? "unpadded"
                                                        : "";
  const bool have_pads = d.pad_source != PadSource::None;
  const bool have_labels = d.labels.has_value();

  CollateOptions counting;
  counting.shift = shift;
  int real_tokens = 0, pads = 0, targets = 0, pad_targets = 0;
  for (int b = 0; b < d.B; ++b) {
    const RowFigures rf = row_figures(row_batch(d, b), 0, counting);
    DoctorRowFigures row;
    row.row = d.row_index[b];
    row.real_tokens = rf.real_tokens;
    row.pads = rf.pads;
    if (have_pads && d.length[b] > 0) row.pad_share = static_cast<double>(rf.pads) / d.length[b];
    if (have_labels) {
      row.targets = rf.targets;
      row.pad_targets = rf.pad_targets;
    }
    real_tokens += rf.real_tokens;
    pads += rf.pads;
    targets += rf.targets;
    pad_targets += rf.pad_targets;
    f.per_row.push_back(row);
  }
  if (have_pads) {
    f.real_tokens = real_tokens;
    f.pads = pads;
    if (real_tokens + pads > 0) f.pad_share = static_cast<double>(pads) / (real_tokens + pads);
  }
  if (!have_labels) {
    f.loss_note = d.row_labels ? "One label per row (sequence classification): no token targets to count."
                               : "No labels: nothing is scored.";
    return f;
  }
  f.targets = targets;
  if (have_pads) {
    f.real_targets = targets - pad_targets;
    f.pad_targets = pad_targets;
    if (targets > 0) f.dilution_factor = static_cast<double>(targets - pad_targets) / targets;
  }
  // Weights: under the token mean a row counts by its targets; under the mean of row means every
  // row counts the same, and a row without targets makes it 0/0 (docs/semantics.md §7.1).
  bool all_rows_scored = true;
  for (auto& row : f.per_row) all_rows_scored = all_rows_scored && *row.targets > 0;
  for (auto& row : f.per_row) {
    if (targets > 0) row.weight_token_mean = static_cast<double>(*row.targets) / targets;
    if (*row.targets > 0) row.weight_per_example = 1.0 / d.B;
  }
  if (targets == 0) {
    f.loss_note = "No label is scored: a token-mean loss is 0/0 (NaN in PyTorch).";
    return f;
  }

  const ScoredPairs scored = scored_pairs(d, shift);
  const BigramPairLosses fitted = bigram_pair_losses(scored.pairs, vocabulary_size(d));
  Sum real, pad, kept;
  std::vector<Sum> rows(d.B);
  for (size_t i = 0; i < scored.pairs.size(); ++i) {
    (scored.pairs[i].held_out ? pad : real).add(fitted.all[i]);
    rows[scored.row[i]].add(fitted.all[i]);
    if (!scored.pairs[i].held_out) kept.add(fitted.kept[i]);
  }
  DoctorLossFigures loss;
  loss.reported = (real.total + pad.total) / (real.count + pad.count);
  if (real.count) loss.real_targets = real.mean();
  if (pad.count) loss.pad_targets = pad.mean();
  if (all_rows_scored) {
    double mean_of_means = 0;
    for (const Sum& r : rows) mean_of_means += r.mean();
    loss.per_example_mean = mean_of_means / d.B;
  }
  // Refitted and scored with the pad labels set to -100: the same pairs minus the held-out ones.
  if (pad.count > 0 && kept.count > 0) loss.without_pad_targets = kept.mean();
  f.loss = loss;
  f.loss_note = "A bigram model fitted on exactly the pairs these labels score (add-0.1 smoothing over the ids "
                "the batch uses): like a real model it learns whatever the labels ask, so pad-after-pad "
                "targets become easy and pull the reported mean down.";
  return f;
}

}  // namespace masklab
