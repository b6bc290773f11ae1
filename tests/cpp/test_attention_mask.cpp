// test_attention_mask.cpp — the three attention-mask policies (attention_mask.cpp via collate).
//
// Rules: tokenizer.pad derives the mask from lengths and keeps an example's own mask
// (docs/semantics.md §2.3); an all-ones mask is the seed bug; `attention_mask = input_ids !=
// pad_token_id` (TRL's RL helpers) hides every real EOS when pad == eos. And the mask never
// decides what is scored (§1.3).
// Fixture: pad == eos == 2, rows [5,6,2] and [7,2] — each ends in a real EOS, row 1 gets one pad.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "attention_mask.hpp"
#include "collate.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

Batch pad_is_eos_batch(AttentionMaskPolicy policy) {
  CollateOptions o;
  o.pad_token_id = 2;
  o.eos_token_id = 2;
  o.attention_mask_policy = policy;
  return collate({ids({5, 6, 2}), ids({7, 2})}, o);
}

}  // namespace

TEST_SUITE("attention_mask") {

TEST_CASE("from_lengths keeps an example's own attention_mask: a 0 inside stays 0 (tokenizer.pad, PR #13926)") {
  // Row 0 [5,6,7] with its own mask [1,0,1]; row 1 [8] without one. Right padding, pad 0:
  //   row 0: no pad -> [1,0,1]; row 1: [1] + two pads -> [1,0,0].
  // Left padding: row 1 -> [0,0,1]; row 0 unchanged.
  Feature a = ids({5, 6, 7});
  a.attention_mask = std::vector<int>{1, 0, 1};
  CollateOptions o;
  o.pad_token_id = 0;
  Batch b = collate({a, ids({8})}, o);
  CHECK(show(b.attention_mask, 2, 3) == "[[1,0,1],[1,0,0]]");
  CHECK(show(b.labels, 2, 3) == "[[5,6,7],[8,-100,-100]]");  // the mask never touches labels
  o.padding_side = Side::Left;
  CHECK(show(collate({a, ids({8})}, o).attention_mask, 2, 3) == "[[1,0,1],[0,0,1]]");

  SUBCASE("position_ids from_mask read the kept 0: cumsum([1,0,1]) - 1 = [0,0,1], masked slot set to 1") {
    o.padding_side = Side::Right;
    o.position_ids = PositionPolicy::FromMask;
    CHECK(show(collate({a, ids({8})}, o).position_ids, 2, 3) == "[[0,1,1],[0,1,1]]");
  }
  SUBCASE("the collators that build their own mask ignore it") {
    o.padding_side = Side::Right;
    o.attention_mask_policy = AttentionMaskPolicy::AllOnes;
    CHECK(show(collate({a, ids({8})}, o).attention_mask, 2, 3) == "[[1,1,1],[1,1,1]]");
    o.attention_mask_policy = AttentionMaskPolicy::InputIdsNePad;
    CHECK(show(collate({a, ids({8})}, o).attention_mask, 2, 3) == "[[1,1,1],[1,0,0]]");
  }
  SUBCASE("truncation cuts the mask with the ids: [1,0,1] cut to 2 on the left -> [0,1]") {
    o.padding_side = Side::Right;
    o.truncation = true;
    o.max_length = 2;
    o.truncation_side = Side::Left;
    CHECK(show(collate({a, ids({8})}, o).attention_mask, 2, 2) == "[[0,1],[1,0]]");
  }
}

TEST_CASE("a given attention_mask must be 0/1 and as long as input_ids") {
  Feature a = ids({5, 6, 7});
  a.attention_mask = std::vector<int>{1, 2, 1};
  CHECK(collate_error({a}, pad0()).field == "features[0].attention_mask[1]");
  a.attention_mask = std::vector<int>{1, 1};
  CHECK(collate_error({a}, pad0()).field == "features[0].attention_mask");
}

TEST_CASE("attention_mask_value: a real EOS equal to the pad id under each policy") {
  // The header's example: pad == eos == 2, a real EOS (is_pad false, id 2).
  CHECK(attention_mask_value(AttentionMaskPolicy::FromLengths, false, 2, 2) == 1);
  CHECK(attention_mask_value(AttentionMaskPolicy::AllOnes, false, 2, 2) == 1);
  CHECK(attention_mask_value(AttentionMaskPolicy::InputIdsNePad, false, 2, 2) == 0);
  // A pad position: 0 unless the mask is all ones.
  CHECK(attention_mask_value(AttentionMaskPolicy::FromLengths, true, 2, 2) == 0);
  CHECK(attention_mask_value(AttentionMaskPolicy::AllOnes, true, 2, 2) == 1);
  CHECK(attention_mask_value(AttentionMaskPolicy::InputIdsNePad, true, 2, 2) == 0);
}

TEST_CASE("from_lengths: 1 on every real token (a real EOS too), 0 on pads") {
  Batch b = pad_is_eos_batch(AttentionMaskPolicy::FromLengths);
  CHECK(show(b.input_ids, 2, 3) == "[[5,6,2],[7,2,2]]");
  CHECK(show(b.attention_mask, 2, 3) == "[[1,1,1],[1,1,0]]");
  CHECK(b.has_attention_mask);
}

TEST_CASE("all_ones: pads are visible to attention") {
  Batch b = pad_is_eos_batch(AttentionMaskPolicy::AllOnes);
  CHECK(show(b.attention_mask, 2, 3) == "[[1,1,1],[1,1,1]]");
}

TEST_CASE("input_ids != pad zeroes every real EOS when pad == eos (TRL get_reward, unsloth #427)") {
  // Row 0 [5,6,2]: the real EOS at t=2 is hidden. Row 1 [7,2,pad]: the real EOS at t=1 and the pad.
  Batch b = pad_is_eos_batch(AttentionMaskPolicy::InputIdsNePad);
  CHECK(show(b.attention_mask, 2, 3) == "[[1,1,0],[1,0,0]]");
}

TEST_CASE("input_ids != pad equals from_lengths when no real token uses the pad id") {
  // pad 0, eos 2: nothing real is 0, so both policies give [[1,1,1],[1,1,0]].
  CollateOptions o;
  o.pad_token_id = 0;
  o.eos_token_id = 2;
  o.attention_mask_policy = AttentionMaskPolicy::InputIdsNePad;
  Batch b = collate({ids({5, 6, 2}), ids({7, 2})}, o);
  CHECK(show(b.attention_mask, 2, 3) == "[[1,1,1],[1,1,0]]");
}

TEST_CASE("left padding: from_lengths zeros sit on the left with the pads") {
  CollateOptions o;
  o.pad_token_id = 2;
  o.padding_side = Side::Left;
  Batch b = collate({ids({5, 6, 2}), ids({7, 2})}, o);
  CHECK(show(b.input_ids, 2, 3) == "[[5,6,2],[2,7,2]]");
  CHECK(show(b.attention_mask, 2, 3) == "[[1,1,1],[0,1,1]]");
}

TEST_CASE("the attention mask policy never changes the labels") {
  // docs/semantics.md §1.3: the mask decides what is read, -100 decides what is scored. Under mask_padding the
  // labels are [[5,6,2],[7,2,-100]] whatever the mask.
  for (auto policy : {AttentionMaskPolicy::FromLengths, AttentionMaskPolicy::AllOnes,
                      AttentionMaskPolicy::InputIdsNePad}) {
    CAPTURE(static_cast<int>(policy));
    Batch b = pad_is_eos_batch(policy);
    CHECK(show(b.labels, 2, 3) == "[[5,6,2],[7,2,-100]]");
  }
}

}  // TEST_SUITE
