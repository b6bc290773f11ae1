// doctor_figures.hpp — the numbers that explain a pasted batch's damage: pad share, trained
// targets per row, the dilution factor, what the reported loss would be with and without the pad
// targets (the tiny bigram model of tiny_model.hpp, fitted on the batch), and each row's weight
// under the token mean and under the mean of row means (docs/semantics.md §10.4).
//
// Counts come from row_figures (figures.hpp) on each row. When PyTorch elided part of the batch,
// every figure covers the visible cells only (`partial`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "doctor_batch.hpp"

namespace masklab {

struct DoctorRowFigures {
  int row = 0;                     // printed index
  int real_tokens = 0, pads = 0;   // pads: 0 when no pad map could be made
  std::optional<int> targets, pad_targets;      // with labels
  std::optional<double> pad_share;              // pads / cells of the row, with a pad map
  std::optional<double> weight_token_mean;      // this row's share of the token-mean loss: targets / all targets
  std::optional<double> weight_per_example;     // its share under the mean of row means: 1 / rows; absent when
                                                // the row has no target (its mean is 0/0)
};

// The bigram's losses (token means) on this batch.
struct DoctorLossFigures {
  double reported = 0;                   // what a trainer would report: every scored target
  std::optional<double> real_targets;    // mean over targets at real tokens (same fit)
  std::optional<double> pad_targets;     // mean over targets at pads (same fit)
  std::optional<double> without_pad_targets;  // refitted and scored with pad labels set to -100
  std::optional<double> per_example_mean;     // mean of row means; absent when a row has no target
};

struct DoctorFigures {
  std::string form;                       // "printed" | "json" | "jsonl"
  std::vector<std::string> fields;        // the fields the checks read
  int rows_shown = 0, positions_shown = 0;
  std::optional<int> rows, positions;     // the true extent, when nothing was elided
  bool partial = false;                   // elided: the figures cover the visible cells only
  std::string pad_side;                   // pad_side_name()
  std::string padding_from;               // "attention_mask" | "pad_token_id" | "" (unknown)
  std::optional<int> real_tokens, pads;   // with a pad map
  std::optional<double> pad_share;
  std::optional<int> targets, real_targets, pad_targets;   // with token labels
  std::optional<double> dilution_factor;  // real_targets / targets: each real token's weight shrinks by it
  std::optional<DoctorLossFigures> loss;
  std::string loss_note;                  // why `loss` is absent, or what it is
  std::vector<DoctorRowFigures> per_row;
};

// shift: the loss scores label[t + 1] at logit t (decoder-only models); false for encoders.
DoctorFigures compute_figures(const DoctorBatch& batch, bool shift);

}  // namespace masklab
