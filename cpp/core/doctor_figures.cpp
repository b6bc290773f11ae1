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
  for (int t = 0; t < one.T; ++t) {
    const int i = d.at(b, t);
    const bool pad = d.is_pad[i] != 0;
    const int label = d.labels ? (*d.labels)[i] : kIgnoreIndex;
    one.input_ids.push_back(d.input_ids[i]);
    one.labels.push_back(label);
    one.is_pad.push_back(pad ? 1 : 0);
    one.label_reasons.push_back(label != kIgnoreIndex ? IgnoreReason::None
                                                      : pad ? IgnoreReason::Padding : IgnoreReason::Given);
  }
  return one;
}

// The batch for the bigram: every row cut at PyTorch's "...", so no pair spans the gap, and
// `owner` maps each of its rows back to the pasted row. Cells a row lacks are never scored.
Batch model_batch(const DoctorBatch& d, const std::vector<int>& labels, std::vector<int>& owner) {
  Batch m;
  std::vector<std::pair<int, int>> pieces;  // (row, first position) of each piece
  for (int b = 0; b < d.B; ++b) {
    pieces.emplace_back(b, 0);
    if (d.position_gap > 0 && d.position_gap < d.length[b]) pieces.emplace_back(b, d.position_gap);
  }
  m.B = static_cast<int>(pieces.size());
  m.T = d.T;
  m.input_ids.assign(static_cast<size_t>(m.B) * m.T, 0);
  m.labels.assign(static_cast<size_t>(m.B) * m.T, kIgnoreIndex);
  for (int p = 0; p < m.B; ++p) {
    const auto [b, start] = pieces[p];
    const int end = start == 0 && d.position_gap > 0 ? std::min(d.position_gap, d.length[b]) : d.length[b];
    for (int t = start; t < end; ++t) {
      m.input_ids[m.at(p, t - start)] = d.input_ids[d.at(b, t)];
      m.labels[m.at(p, t - start)] = labels[d.at(b, t)];
    }
    owner.push_back(b);
  }
  return m;
}

// The distinct ids the pasted cells use (inputs and trained labels): the bigram's vocabulary.
// A bitmap when the ids are below 2^24 (every tokenizer's are); sorting otherwise.
int vocabulary_size(const DoctorBatch& d) {
  std::vector<int> ids;
  int largest = 0;
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t) {
      ids.push_back(d.input_ids[d.at(b, t)]);
      const int y = (*d.labels)[d.at(b, t)];
      if (y >= 0) ids.push_back(y);
    }
  for (int id : ids) largest = std::max(largest, id);
  if (largest < (1 << 24)) {
    std::vector<std::uint64_t> seen(static_cast<size_t>(largest) / 64 + 1, 0);
    int distinct = 0;
    for (int id : ids) {
      std::uint64_t& word = seen[static_cast<size_t>(id) / 64];
      const std::uint64_t bit = 1ull << (id % 64);
      distinct += (word & bit) ? 0 : 1;
      word |= bit;
    }
    return distinct;
  }
  std::sort(ids.begin(), ids.end());
  return static_cast<int>(std::unique(ids.begin(), ids.end()) - ids.begin());
}

struct Scored {
  double sum = 0;
  int count = 0;
};

// Fits the bigram on `labels` over a vocabulary of V ids, scores every target, and splits the sums by where the target
// sits (a pad or a real token) and by pasted row.
void score(const DoctorBatch& d, const std::vector<int>& labels, int V, bool shift, Scored& real, Scored& pad,
           std::vector<Scored>& rows) {
  std::vector<int> owner;
  const Batch m = model_batch(d, labels, owner);
  const std::vector<double> losses = bigram_target_losses(m, V, shift);
  // The piece's cells in the pasted grid: piece p starts at position 0 or at the gap.
  for (int p = 0; p < m.B; ++p) {
    const int b = owner[p];
    const int offset = p > 0 && owner[p - 1] == b ? d.position_gap : 0;
    for (int t = 0; t < m.T; ++t) {
      const int src = shift ? t + 1 : t;
      if (src >= m.T || m.labels[m.at(p, src)] == kIgnoreIndex) continue;
      const double nll = losses[m.at(p, t)];
      Scored& where = d.is_pad[d.at(b, src + offset)] ? pad : real;
      where.sum += nll;
      ++where.count;
      rows[b].sum += nll;
      ++rows[b].count;
    }
  }
}

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

  const int V = vocabulary_size(d);
  Scored real, pad;
  std::vector<Scored> rows(d.B);
  score(d, *d.labels, V, shift, real, pad, rows);
  DoctorLossFigures loss;
  loss.reported = (real.sum + pad.sum) / (real.count + pad.count);
  if (real.count) loss.real_targets = real.sum / real.count;
  if (pad.count) loss.pad_targets = pad.sum / pad.count;
  if (all_rows_scored) {
    double mean_of_means = 0;
    for (const Scored& r : rows) mean_of_means += r.sum / r.count;
    loss.per_example_mean = mean_of_means / d.B;
  }
  if (pad.count > 0) {
    std::vector<int> fixed = *d.labels;
    for (size_t i = 0; i < fixed.size(); ++i)
      if (d.is_pad[i]) fixed[i] = kIgnoreIndex;
    Scored fixed_real, fixed_pad;
    std::vector<Scored> fixed_rows(d.B);
    score(d, fixed, V, shift, fixed_real, fixed_pad, fixed_rows);
    if (fixed_real.count) loss.without_pad_targets = fixed_real.sum / fixed_real.count;
  }
  f.loss = loss;
  f.loss_note = "A bigram model fitted on exactly the pairs these labels score (add-0.1 smoothing over the ids "
                "the batch uses): like a real model it learns whatever the labels ask, so pad-after-pad "
                "targets become easy and pull the reported mean down.";
  return f;
}

}  // namespace masklab
