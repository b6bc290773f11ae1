// test_accumulation.cpp — gradient accumulation: the mean of micro-batch means (the Trainer before
// transformers 4.46) against the global token mean Σ S_i / Σ N_i (docs/semantics.md §7.2, HF blog
// "Fixing Gradient Accumulation"), and the unshifted count that was num_items_in_batch until
// PR #46204.
//
// Fixture: micro-batch A, V=2 with all-zero logits (every token loss ln 2), 2 targets;
// micro-batch B, V=4 with all-zero logits (every token loss ln 4 = 2 ln 2), 8 targets.
//   mean_of_means = (ln 2 + 2 ln 2) / 2 = 1.5 ln 2
//   global        = (2 ln 2 + 8 * 2 ln 2) / 10 = 18 ln 2 / 10 = 1.8 ln 2
// Doubles compared with doctest::Approx at relative epsilon 1e-12.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "accumulation.hpp"
#include "input_error.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

constexpr double kEps = 1e-12;
const double kLn2 = std::log(2.0);

// All-zero logits [B,T,V]: every scored token has loss ln V.
LossInput zeros(int B, int T, int V, std::vector<int> labels) {
  return loss_input(B, T, V, std::vector<double>(static_cast<size_t>(B) * T * V, 0.0), std::move(labels));
}

// A: one row [0,1,0] -> 3 labels, 2 targets after the shift.
LossInput micro_a() { return zeros(1, 3, 2, {0, 1, 0}); }
// B: two rows of 5 labels -> 10 labels, 4 + 4 = 8 targets after the shift.
LossInput micro_b() { return zeros(2, 5, 4, {0, 1, 2, 3, 0, 3, 2, 1, 0, 1}); }

}  // namespace

TEST_SUITE("accumulation") {

TEST_CASE("2 + 8 targets: mean of means 1.5 ln 2 against the global token mean 1.8 ln 2") {
  AccumulationResult r = accumulate({micro_a(), micro_b()});
  REQUIRE(r.micro_batches.size() == 2u);
  CHECK(r.micro_batches[0].num_targets == 2);
  CHECK(r.micro_batches[0].sum == doctest::Approx(2 * kLn2).epsilon(kEps));
  CHECK(*r.micro_batches[0].mean == doctest::Approx(kLn2).epsilon(kEps));
  CHECK(r.micro_batches[1].num_targets == 8);
  CHECK(r.micro_batches[1].sum == doctest::Approx(16 * kLn2).epsilon(kEps));
  CHECK(*r.micro_batches[1].mean == doctest::Approx(2 * kLn2).epsilon(kEps));

  REQUIRE(r.mean_of_means.has_value());
  REQUIRE(r.global_token_mean.has_value());
  CHECK(*r.mean_of_means == doctest::Approx(1.5 * kLn2).epsilon(kEps));
  CHECK(*r.global_token_mean == doctest::Approx(1.8 * kLn2).epsilon(kEps));
  CHECK(r.num_items_in_batch == 10);
  CHECK(r.null_reason.empty());
}

TEST_CASE("num_items_unshifted counts one label too many per row whose first label is trained") {
  // A: 1 row, labels 3 vs targets 2; B: 2 rows, labels 10 vs targets 8 -> 13 against 10.
  AccumulationResult r = accumulate({micro_a(), micro_b()});
  CHECK(r.micro_batches[0].label_tokens == 3);
  CHECK(r.micro_batches[1].label_tokens == 10);
  CHECK(r.num_items_unshifted == 13);
  CHECK(r.num_items_in_batch == 10);

  SUBCASE("a first label of -100 (a prompt token) removes the difference for that row") {
    LossInput a = micro_a();
    a.labels[0] = -100;
    AccumulationResult s = accumulate({a, micro_b()});
    CHECK(s.num_items_unshifted == 12);
    CHECK(s.num_items_in_batch == 10);
  }
}

TEST_CASE("equal target counts: both averages agree") {
  // Two micro-batches with 2 targets each: (S_A/2 + S_B/2)/2 = (S_A + S_B)/4.
  // A: 2 x ln 2; C (V=4): 2 x ln 4 -> both give (2 ln 2 + 4 ln 2) / 4 = 1.5 ln 2.
  LossInput c = zeros(1, 3, 4, {0, 1, 2});
  AccumulationResult r = accumulate({micro_a(), c});
  CHECK(*r.mean_of_means == doctest::Approx(1.5 * kLn2).epsilon(kEps));
  CHECK(*r.global_token_mean == doctest::Approx(1.5 * kLn2).epsilon(kEps));
}

TEST_CASE("an empty micro-batch: mean_of_means is absent with a reason, the token mean is not") {
  LossInput empty = zeros(1, 3, 2, {-100, -100, -100});
  AccumulationResult r = accumulate({empty, micro_b()});
  CHECK_FALSE(r.micro_batches[0].mean.has_value());
  CHECK_FALSE(r.mean_of_means.has_value());
  CHECK(r.null_reason.find("micro-batch 0") != std::string::npos);
  CHECK(r.null_reason.find("NaN") != std::string::npos);
  // B alone: 16 ln 2 / 8.
  REQUIRE(r.global_token_mean.has_value());
  CHECK(*r.global_token_mean == doctest::Approx(2 * kLn2).epsilon(kEps));
}

TEST_CASE("no micro-batch with a target: both averages absent, and the reason says so") {
  LossInput empty = zeros(1, 2, 2, {-100, -100});
  AccumulationResult r = accumulate({empty, empty});
  CHECK_FALSE(r.mean_of_means.has_value());
  CHECK_FALSE(r.global_token_mean.has_value());
  CHECK(r.null_reason.find("0, 1") != std::string::npos);
  CHECK(r.null_reason.find("token mean") != std::string::npos);
}

TEST_CASE("each micro-batch's own reduction and gradient flags are ignored") {
  LossInput a = micro_a(), b = micro_b();
  a.reduction = Reduction::None;
  a.gradient = true;
  b.reduction = Reduction::SumOverNumItems;  // no num_items_in_batch: would be an error on its own
  AccumulationResult r = accumulate({a, b});
  CHECK(*r.global_token_mean == doctest::Approx(1.8 * kLn2).epsilon(kEps));
}

TEST_CASE("without the shift every label counts, so the two counts agree") {
  LossInput a = micro_a(), b = micro_b();
  a.shift = b.shift = false;
  AccumulationResult r = accumulate({a, b});
  CHECK(r.num_items_in_batch == 13);
  CHECK(r.num_items_unshifted == 13);
  // (3 ln 2 + 10 * 2 ln 2) / 13 = 23 ln 2 / 13.
  CHECK(*r.global_token_mean == doctest::Approx(23 * kLn2 / 13).epsilon(kEps));
}

TEST_CASE("bad input names the micro-batch") {
  SUBCASE("no micro-batches") {
    try {
      accumulate({});
      FAIL("accepted an empty list");
    } catch (const InputError& e) {
      CHECK(e.field == "micro_batches");
    }
  }
  SUBCASE("a NaN logit in micro-batch 1") {
    LossInput b = micro_b();
    b.logits[0] = std::numeric_limits<double>::quiet_NaN();
    try {
      accumulate({micro_a(), b});
      FAIL("accepted a NaN logit");
    } catch (const InputError& e) {
      CHECK(e.field == "micro_batches[1].logits[0][0][0]");
    }
  }
}

}  // TEST_SUITE
