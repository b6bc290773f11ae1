// test_figures.cpp — the per-row counts shown next to each grid row (figures.cpp).
//
// "targets" are the labels the loss scores: under the causal shift label[t] is scored at logit
// t-1, so label[0] never is (docs/semantics.md §1.1). "label_tokens" is the unshifted count
// (labels != -100) that was num_items_in_batch until transformers PR #46204 (docs/semantics.md §7.2).
#include <doctest/doctest.h>

#include <vector>

#include "collate.hpp"
#include "figures.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

TEST_SUITE("figures") {

TEST_CASE("the header's example: [5,6,2] plus one pad, eos 2, shift") {
  // labels [5,6,2,-100]: real 3, pads 1, label_tokens 3 (5,6,2), targets 2 (6 and 2: label[0]
  // is never scored), eos_targets 1, one -100 for padding, pad_share 1/4.
  CollateOptions o;
  o.pad_token_id = 0;
  o.eos_token_id = 2;
  o.padding = Padding::MaxLength;
  o.max_length = 4;
  Batch b = collate({ids({5, 6, 2})}, o);
  REQUIRE(b.labels == std::vector<int>{5, 6, 2, -100});
  RowFigures f = row_figures(b, 0, o);
  CHECK(f.real_tokens == 3);
  CHECK(f.pads == 1);
  CHECK(f.label_tokens == 3);
  CHECK(f.targets == 2);
  CHECK(f.pad_targets == 0);
  CHECK(f.eos_targets == 1);
  CHECK(f.ignored[static_cast<int>(IgnoreReason::Padding)] == 1);
  CHECK(f.pad_share == doctest::Approx(0.25).epsilon(1e-12));
  CHECK(f.truncated_tokens == 0);
}

TEST_CASE("without the shift every non -100 label is a target, label[0] included") {
  CollateOptions o;
  o.pad_token_id = 0;
  o.eos_token_id = 2;
  o.shift = false;
  o.padding = Padding::MaxLength;
  o.max_length = 4;
  Batch b = collate({ids({5, 6, 2})}, o);
  RowFigures f = row_figures(b, 0, o);
  CHECK(f.label_tokens == 3);
  CHECK(f.targets == 3);
}

TEST_CASE("labels = input_ids: pad positions are counted as pad targets") {
  // [5,6,2] padded to 5 with pad 0: labels [5,6,2,0,0]; targets at t=1..4 = 6,2,0,0 -> 4 targets,
  // 2 of them at pads. pad_share 2/5.
  CollateOptions o;
  o.pad_token_id = 0;
  o.eos_token_id = 2;
  o.label_policy = LabelPolicy::InputIds;
  o.padding = Padding::MaxLength;
  o.max_length = 5;
  Batch b = collate({ids({5, 6, 2})}, o);
  RowFigures f = row_figures(b, 0, o);
  CHECK(f.targets == 4);
  CHECK(f.pad_targets == 2);
  CHECK(f.eos_targets == 1);
  CHECK(f.label_tokens == 5);
  CHECK(f.pad_share == doctest::Approx(0.4).epsilon(1e-12));
}

TEST_CASE("left padding: the first real token is scored, predicted from a pad's logit") {
  // Row [pad,5,6]: labels [-100,5,6]. The shift scores label[1]=5 at logit 0 — a pad position
  // reads nothing useful but its logit still predicts the first real token, as in transformers.
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding_side = Side::Left;
  Batch b = collate({ids({4, 5, 6}), ids({5, 6})}, o);
  RowFigures f = row_figures(b, 1, o);
  CHECK(f.real_tokens == 2);
  CHECK(f.pads == 1);
  CHECK(f.label_tokens == 2);
  CHECK(f.targets == 2);
  CHECK(f.pad_targets == 0);
}

TEST_CASE("eos_targets counts scored EOS labels at real positions only") {
  // eos 2 at t=0 is not scored (no logit before it); eos at t=2 is. Pads equal to eos under
  // input_ids are pad targets, not EOS targets.
  CollateOptions o;
  o.pad_token_id = 2;
  o.eos_token_id = 2;
  o.label_policy = LabelPolicy::InputIds;
  Batch b = collate({ids({2, 5, 2}), ids({2})}, o);
  CHECK(row_figures(b, 0, o).eos_targets == 1);
  RowFigures f1 = row_figures(b, 1, o);
  CHECK(f1.eos_targets == 0);
  CHECK(f1.pad_targets == 2);
}

TEST_CASE("is_scored_position: label 0 is skipped only under the shift") {
  CHECK_FALSE(is_scored_position(0, true));
  CHECK(is_scored_position(1, true));
  CHECK(is_scored_position(0, false));
}

}  // TEST_SUITE
