// test_doctor_figures.cpp — the figures the doctor shows (doctor_figures.cpp): pad share, targets
// per row, the dilution factor, the bigram's reported loss with and without the pad targets, the
// rows' weights under the token mean and the mean of row means — on a batch small enough to work
// out by hand — and the sparse bigram (tiny_model.cpp) against the dense one it must equal.
// Tolerance: 1e-12 on float64 losses.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "doctor.hpp"
#include "fixtures.hpp"
#include "loss.hpp"
#include "printed_batch.hpp"
#include "tiny_model.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {
constexpr double kTolerance = 1e-12;
}

TEST_CASE("dilution worked out by hand: two rows, labels copied, pads trained") {
  // ids row 0 [5 6 0 0], row 1 [5 6 6 0]; pad 0; labels = input_ids.
  // Scored pairs after the shift: row 0: 5→6 (real), 6→0 (pad), 0→0 (pad);
  //                               row 1: 5→6 (real), 6→6 (real), 6→0 (pad).
  // Counts: from 5 {6: 2} of 2; from 6 {0: 2, 6: 1} of 3; from 0 {0: 1} of 1. V = {0, 5, 6} = 3,
  // smoothing 0.1, so P(y | a) = (c + 0.1) / (n + 0.3).
  DoctorOptions o;
  o.pad_token_id = 0;
  const DoctorReport r = diagnose(parse_printed_batch(R"({"input_ids": [[5, 6, 0, 0], [5, 6, 6, 0]],
      "attention_mask": [[1, 1, 0, 0], [1, 1, 1, 0]], "labels": [[5, 6, 0, 0], [5, 6, 6, 0]]})"),
                                  o);
  const DoctorFigures& f = r.figures;
  CHECK(f.pads == 3);
  CHECK(f.real_tokens == 5);
  CHECK(f.pad_share == doctest::Approx(3.0 / 8).epsilon(kTolerance));
  CHECK(f.targets == 6);
  CHECK(f.pad_targets == 3);
  CHECK(f.real_targets == 3);
  CHECK(*f.dilution_factor == doctest::Approx(0.5).epsilon(kTolerance));

  const double five_six = std::log(2.3 / 2.1), six_zero = std::log(3.3 / 2.1), six_six = std::log(3.3 / 1.1),
               zero_zero = std::log(1.3 / 1.1);
  REQUIRE(f.loss.has_value());
  CHECK(f.loss->reported == doctest::Approx((2 * five_six + six_six + 2 * six_zero + zero_zero) / 6).epsilon(kTolerance));
  CHECK(*f.loss->real_targets == doctest::Approx((2 * five_six + six_six) / 3).epsilon(kTolerance));
  CHECK(*f.loss->pad_targets == doctest::Approx((2 * six_zero + zero_zero) / 3).epsilon(kTolerance));
  // Refitted on real targets only: from 5 {6: 2} of 2, from 6 {6: 1} of 1.
  CHECK(*f.loss->without_pad_targets ==
        doctest::Approx((2 * five_six + std::log(1.3 / 1.1)) / 3).epsilon(kTolerance));
  const double row0 = (five_six + six_zero + zero_zero) / 3, row1 = (five_six + six_six + six_zero) / 3;
  CHECK(*f.loss->per_example_mean == doctest::Approx((row0 + row1) / 2).epsilon(kTolerance));

  REQUIRE(f.per_row.size() == 2u);
  CHECK(f.per_row[0].targets == 3);
  CHECK(f.per_row[0].pad_targets == 2);
  CHECK(*f.per_row[0].pad_share == doctest::Approx(0.5));
  CHECK(*f.per_row[1].weight_token_mean == doctest::Approx(0.5));
  CHECK(*f.per_row[1].weight_per_example == doctest::Approx(0.5));
}

TEST_CASE("weights: a row with more targets weighs more under the token mean, the same under the mean of means") {
  const DoctorReport r = diagnose(parse_printed_batch(R"({"input_ids": [[5, 6, 7, 8], [5, 6, 0, 0]],
      "attention_mask": [[1, 1, 1, 1], [1, 1, 0, 0]], "labels": [[5, 6, 7, 8], [5, 6, -100, -100]]})"),
                                  DoctorOptions{0, std::nullopt, std::nullopt, false, false});
  // Targets after the shift: row 0 three (6, 7, 8), row 1 one (6).
  CHECK(*r.figures.per_row[0].weight_token_mean == doctest::Approx(0.75));
  CHECK(*r.figures.per_row[1].weight_token_mean == doctest::Approx(0.25));
  CHECK(*r.figures.per_row[0].weight_per_example == doctest::Approx(0.5));
  CHECK(*r.figures.dilution_factor == doctest::Approx(1.0));
  REQUIRE(r.figures.loss.has_value());
  CHECK_FALSE(r.figures.loss->without_pad_targets.has_value());  // nothing to take out
}

TEST_CASE("a row without a target has no weight under the mean of row means, and no per-example loss") {
  const DoctorReport r = diagnose(parse_printed_batch(R"({"input_ids": [[5, 6], [5, 6]], "labels": [[5, 6], [5, -100]]})"),
                                  DoctorOptions{});
  CHECK_FALSE(r.figures.per_row[1].weight_per_example.has_value());
  CHECK(*r.figures.per_row[1].weight_token_mean == doctest::Approx(0.0));
  REQUIRE(r.figures.loss.has_value());
  CHECK_FALSE(r.figures.loss->per_example_mean.has_value());
}

TEST_CASE("elided batches: figures over the visible cells, and no bigram pair across the '...'") {
  const DoctorReport r = diagnose(
      parse_printed_batch("{'input_ids': tensor([[1, 5, 6,  ..., 7, 8, 9]]), 'labels': tensor([[1, 5, 6,  ..., 7, 8, 9]])}"),
      DoctorOptions{});
  CHECK(r.figures.partial);
  CHECK_FALSE(r.figures.positions.has_value());
  CHECK(r.figures.rows == 1);
  // Labels at visible positions 1..5 are all scored (t >= 1): 5 targets; the bigram scores only
  // the 4 pairs inside each visible run (1→5, 5→6 and 7→8, 8→9).
  CHECK(r.figures.targets == 5);
  REQUIRE(r.figures.loss.has_value());
  // V = 6 ids, four pairs each seen once from a distinct source: P = 1.1 / 1.6 each.
  CHECK(r.figures.loss->reported == doctest::Approx(std::log(1.6 / 1.1)).epsilon(kTolerance));
}

TEST_CASE("the sparse bigram equals bigram_logits + cross_entropy, position by position") {
  // A batch with repeats, ignored labels and pads labelled, ids already 0..V-1 so the dense
  // table can be built.
  Batch b;
  b.B = 2;
  b.T = 6;
  b.input_ids = {1, 3, 4, 3, 4, 0, 1, 2, 2, 0, 0, 0};
  b.labels = {1, 3, 4, 3, -100, 0, 1, 2, 2, 0, 0, -100};
  const int V = 5;
  for (bool shift : {true, false}) {
    CAPTURE(shift);
    const std::vector<double> sparse = bigram_target_losses(b, V, shift);
    LossInput in = loss_input(b.B, b.T, V, bigram_logits(b, V, shift), b.labels);
    in.shift = shift;
    const LossResult dense = cross_entropy(in);
    REQUIRE(sparse.size() == dense.per_token.size());
    for (size_t i = 0; i < sparse.size(); ++i) {
      CAPTURE(i);
      CHECK(sparse[i] == doctest::Approx(dense.per_token[i]).epsilon(kTolerance));
    }
  }
}

TEST_CASE("the sparse bigram's one-pair example: ln(1.8 / 1.1)") {
  Batch b;
  b.B = 1;
  b.T = 2;
  b.input_ids = {5, 6};
  b.labels = {-100, 6};
  const std::vector<double> losses = bigram_target_losses(b, 8, true);
  CHECK(losses[0] == doctest::Approx(std::log(1.8 / 1.1)).epsilon(kTolerance));
  CHECK(losses[1] == 0.0);
}

TEST_CASE("both fits from one sort: all pairs, and without the held-out ones") {
  // (5→6) twice and (5→7) held out, V = 3: n_5 is 3 with all pairs, 2 without the held-out one.
  const BigramPairLosses fitted = bigram_pair_losses({{5, 6, false}, {5, 6, false}, {5, 7, true}}, 3);
  CHECK(fitted.all[0] == doctest::Approx(std::log(3.3 / 2.1)).epsilon(kTolerance));
  CHECK(fitted.all[1] == doctest::Approx(std::log(3.3 / 2.1)).epsilon(kTolerance));
  CHECK(fitted.all[2] == doctest::Approx(std::log(3.3 / 1.1)).epsilon(kTolerance));
  CHECK(fitted.kept[0] == doctest::Approx(std::log(2.3 / 2.1)).epsilon(kTolerance));
  CHECK(fitted.kept[2] == 0.0);
}
