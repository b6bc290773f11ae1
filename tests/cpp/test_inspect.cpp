// test_inspect.cpp — the one-call view behind the token grid (inspect.cpp, tiny_model.cpp):
// collate, toggles, a bigram model fitted on the scored pairs, the loss and its dilution.
//
// Fixture (pad 0, right padding): row 0 = [1,2,3,4], row 1 = [1] + 3 pads -> [1,0,0,0]. V = 5.
// The bigram is fitted on the pairs (input_ids[t], label[t+1]) the labels score, with add-0.1
// smoothing: P(y | a) = (count(a, y) + 0.1) / (count(a) + 0.1 * 5).
//
// labels = input_ids (the pad bug, docs/semantics.md §3.6): pairs (1,2) (2,3) (3,4) from row 0 and
// (1,0) (0,0) (0,0) from row 1, so
//   P(2|1) = P(0|1) = 1.1/2.5 = 11/25,  P(3|2) = P(4|3) = 1.1/1.5 = 11/15,  P(0|0) = 2.1/2.5 = 21/25.
//   real targets (row 0): ln(25/11) + 2 ln(15/11)           ≈ 0.821 + 0.620
//   pad targets  (row 1): ln(25/11) + 2 ln(25/21)           ≈ 0.821 + 0.349
// A pad following a pad costs ln(25/21) ≈ 0.174, less than any real token (>= ln(15/11) ≈ 0.310):
// pads are easy targets and pull the reported mean below the loss on real tokens.
//
// mask_padding: only row 0's pairs are fitted: P(2|1) = P(3|2) = P(4|3) = 1.1/1.5 = 11/15, so
// every one of the 3 targets costs ln(15/11).
// Doubles compared with doctest::Approx at relative epsilon 1e-12.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "input_error.hpp"
#include "inspect.hpp"
#include "tiny_model.hpp"

using namespace masklab;

namespace {

constexpr double kEps = 1e-12;

InspectInput fixture(LabelPolicy policy) {
  InspectInput in;
  Feature a, b;
  a.input_ids = {1, 2, 3, 4};
  b.input_ids = {1};
  in.features = {a, b};
  in.options.pad_token_id = 0;
  in.options.label_policy = policy;
  return in;
}

double ln(double x) { return std::log(x); }

}  // namespace

TEST_SUITE("inspect") {

TEST_CASE("labels = input_ids: pads are predicted easily and dilute the mean") {
  InspectResult r = inspect(fixture(LabelPolicy::InputIds));
  CHECK(r.V == 5);
  REQUIRE(r.batch.labels == std::vector<int>{1, 2, 3, 4, 1, 0, 0, 0});

  // Per-token losses at row 1: logit 0 (token 1 -> pad 0), logits 1 and 2 (pad -> pad).
  CHECK(r.loss.per_token[4] == doctest::Approx(ln(25.0 / 11)).epsilon(kEps));
  CHECK(r.loss.per_token[5] == doctest::Approx(ln(25.0 / 21)).epsilon(kEps));
  CHECK(r.loss.per_token[6] == doctest::Approx(ln(25.0 / 21)).epsilon(kEps));
  for (int t = 0; t < 3; ++t) CHECK(r.loss.per_token[5] < r.loss.per_token[t]);

  const double sum_real = ln(25.0 / 11) + 2 * ln(15.0 / 11);
  const double sum_pad = ln(25.0 / 11) + 2 * ln(25.0 / 21);
  const InspectSummary& s = r.summary;
  CHECK(s.targets == 6);
  CHECK(s.real_targets == 3);
  CHECK(s.pad_targets == 3);
  CHECK(s.sum_real == doctest::Approx(sum_real).epsilon(kEps));
  CHECK(s.sum_pad == doctest::Approx(sum_pad).epsilon(kEps));
  REQUIRE(s.loss.has_value());
  REQUIRE(s.loss_real.has_value());
  REQUIRE(s.loss_pad.has_value());
  CHECK(*s.loss == doctest::Approx((sum_real + sum_pad) / 6).epsilon(kEps));
  CHECK(*s.loss_real == doctest::Approx(sum_real / 3).epsilon(kEps));
  CHECK(*s.loss_pad == doctest::Approx(sum_pad / 3).epsilon(kEps));
  CHECK(*s.loss < *s.loss_real);  // the reported loss looks better than the real-token loss
  // Every shifted position is already scored, so "all positions" is the same loss.
  CHECK(*s.loss_all_positions == doctest::Approx(*s.loss).epsilon(kEps));
  // 3 pads in 2 x 4 cells; half of the targets are real tokens.
  CHECK(s.pad_share == doctest::Approx(3.0 / 8).epsilon(kEps));
  CHECK(*s.dilution_factor == doctest::Approx(0.5).epsilon(kEps));
}

TEST_CASE("mask_padding: only real tokens are targets and nothing is diluted") {
  InspectResult r = inspect(fixture(LabelPolicy::MaskPadding));
  const InspectSummary& s = r.summary;
  CHECK(s.targets == 3);
  CHECK(s.real_targets == 3);
  CHECK(s.pad_targets == 0);
  CHECK(*s.loss == doctest::Approx(ln(15.0 / 11)).epsilon(kEps));
  CHECK(*s.loss_real == doctest::Approx(ln(15.0 / 11)).epsilon(kEps));
  CHECK_FALSE(s.loss_pad.has_value());
  CHECK(*s.dilution_factor == doctest::Approx(1.0).epsilon(kEps));
  // Scoring every position with the same logits: row 1 adds 1 -> 0 (P = 0.1/1.5, loss ln 15) and
  // twice 0 -> 0 (no pair from 0 was fitted: P = 0.1/0.5, loss ln 5).
  CHECK(*s.loss_all_positions ==
        doctest::Approx((3 * ln(15.0 / 11) + ln(15.0) + 2 * ln(5.0)) / 6).epsilon(kEps));
}

TEST_CASE("bigram_logits: the header's example, one pair 5 -> 6 in a V=8 table") {
  // P(6|5) = 1.1 / 1.8, every other P(.|5) = 0.1 / 1.8.
  Batch b;
  b.B = 1;
  b.T = 2;
  b.input_ids = {5, 6};
  b.labels = {-100, 6};
  std::vector<double> logits = bigram_logits(b, 8, true);
  REQUIRE(logits.size() == 16u);
  CHECK(logits[6] == doctest::Approx(ln(1.1 / 1.8)).epsilon(kEps));
  CHECK(logits[0] == doctest::Approx(ln(0.1 / 1.8)).epsilon(kEps));
  // Token 6 was never a source: uniform 0.1 / 0.8 = 1/8.
  CHECK(logits[8 + 3] == doctest::Approx(ln(1.0 / 8)).epsilon(kEps));
}

TEST_CASE("toggling a label: a trained label becomes -100 with reason user, and back") {
  InspectInput in = fixture(LabelPolicy::MaskPadding);
  in.toggle_labels = {{0, 3}, {1, 1}};
  InspectResult r = inspect(in);
  // (0,3): label 4 -> -100 (user). (1,1): a pad's -100 -> its input id 0, trained.
  CHECK(r.batch.labels == std::vector<int>{1, 2, 3, -100, 1, 0, -100, -100});
  CHECK(r.batch.label_reasons[3] == IgnoreReason::User);
  CHECK(r.batch.label_reasons[5] == IgnoreReason::None);
  CHECK(r.rows[0].ignored[static_cast<int>(IgnoreReason::User)] == 1);
  CHECK(r.rows[1].pad_targets == 1);
  CHECK(r.summary.pad_targets == 1);
}

TEST_CASE("toggling the attention mask recomputes from_mask positions for that row") {
  // Left padding: row 1 = [pad,pad,pad,1], mask [0,0,0,1], positions [1,1,1,0]. Toggling (1,0)
  // gives mask [1,0,0,1]: cumsum - 1 = [0,0,0,1], masked -> 1: [0,1,1,1].
  InspectInput in = fixture(LabelPolicy::MaskPadding);
  in.options.padding_side = Side::Left;
  in.options.position_ids = PositionPolicy::FromMask;
  InspectResult before = inspect(in);
  CHECK(std::vector<int>(before.batch.position_ids.begin() + 4, before.batch.position_ids.end()) ==
        std::vector<int>{1, 1, 1, 0});
  in.toggle_attention_mask = {{1, 0}};
  InspectResult after = inspect(in);
  CHECK(std::vector<int>(after.batch.attention_mask.begin() + 4, after.batch.attention_mask.end()) ==
        std::vector<int>{1, 0, 0, 1});
  CHECK(std::vector<int>(after.batch.position_ids.begin() + 4, after.batch.position_ids.end()) ==
        std::vector<int>{0, 1, 1, 1});
}

TEST_CASE("attention view: left pads under a causal mask are fully masked queries, never NaN") {
  InspectInput in = fixture(LabelPolicy::MaskPadding);
  in.options.padding_side = Side::Left;
  InspectResult r = inspect(in);
  // Row 1 = [pad,pad,pad,1]: queries 0, 1, 2 see only pads.
  REQUIRE(r.attention.fully_masked_queries.size() == 3u);
  CHECK(r.attention.fully_masked_queries[0] == std::pair<int, int>{1, 0});
  CHECK(r.attention.fully_masked_queries[2] == std::pair<int, int>{1, 2});
  for (double x : r.attention.output) CHECK(std::isfinite(x));
}

TEST_CASE("attention view: flatten isolates packed examples, concat_unsafe does not") {
  // Packed row [1,2,3,4,1]: example 1 starts at t=4. Can query 4 read key 3?
  InspectInput in = fixture(LabelPolicy::MaskPadding);
  in.options.packing = Packing::Flatten;
  InspectResult flat = inspect(in);
  REQUIRE(flat.batch.T == 5);
  CHECK(flat.attention.visible[4 * 5 + 3] == 0);
  CHECK(flat.attention.visible[4 * 5 + 4] == 1);
  in.options.packing = Packing::ConcatUnsafe;
  InspectResult unsafe = inspect(in);
  CHECK(unsafe.attention.visible[4 * 5 + 3] == 1);
}

TEST_CASE("attention view by implementation: FlashAttention-2 drops an all-ones mask, not one with a 0") {
  // Packed row [1,2,3,4,1] (the fixture's two rows), example 1 starting at t=4; count the keys
  // query 4 may read (docs/semantics.md §4.3).
  InspectInput in = fixture(LabelPolicy::MaskPadding);
  auto keys_of_query_4 = [&](int T) {
    InspectResult r = inspect(in);
    REQUIRE(r.batch.T == T);
    int n = 0;
    for (int k = 0; k < T; ++k) n += r.attention.visible[static_cast<size_t>(4) * T + k];
    return n;
  };
  SUBCASE("TRL 0.20-0.23 padding-free: positions restart [0,1,2,3,0] and an all-ones mask is sent") {
    in.options.packing = Packing::PaddingFreeLegacy;
    CHECK(keys_of_query_4(5) == 5);  // sdpa applies the mask: keys 0..4, the first example too
    in.attn_implementation = AttentionImplementation::FlashAttention2;
    CHECK(keys_of_query_4(5) == 1);  // the mask is dropped; position 0 at t=4 starts a document
  }
  SUBCASE("the same with pad_to_multiple_of 8: the mask has 0s at the tail, so FA2 uses it too") {
    in.options.packing = Packing::PaddingFreeLegacy;
    in.options.pad_to_multiple_of = 8;
    in.attn_implementation = AttentionImplementation::FlashAttention2;
    CHECK(keys_of_query_4(8) == 5);
  }
  SUBCASE("concat_unsafe: positions run on [0..4], so even with the mask dropped there is one document") {
    in.options.packing = Packing::ConcatUnsafe;
    in.attn_implementation = AttentionImplementation::FlashAttention2;
    CHECK(keys_of_query_4(5) == 5);
  }
  SUBCASE("TRL >= 0.24 padding-free sends no mask: both paths isolate the example") {
    in.options.packing = Packing::PaddingFree;
    CHECK(keys_of_query_4(5) == 1);
    in.attn_implementation = AttentionImplementation::FlashAttention2;
    CHECK(keys_of_query_4(5) == 1);
  }
}

TEST_CASE("inspect refuses batches larger than the grid and toggles outside it") {
  InspectInput in = fixture(LabelPolicy::MaskPadding);
  SUBCASE("too many rows") {
    Feature f;
    f.input_ids = {1};
    in.features.assign(kMaxInspectRows + 1, f);
    try {
      inspect(in);
      FAIL("accepted a batch larger than the grid");
    } catch (const InputError& e) {
      CHECK(e.field == "features");
    }
  }
  SUBCASE("a label toggle outside the batch") {
    in.toggle_labels = {{2, 0}};
    try {
      inspect(in);
      FAIL("accepted a toggle outside the batch");
    } catch (const InputError& e) {
      CHECK(e.field == "toggle_labels[0]");
    }
  }
}

}  // TEST_SUITE
