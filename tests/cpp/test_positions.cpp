// test_positions.cpp — position_ids: arange (a training forward's default) against from_mask
// (what generate() derives: attention_mask.cumsum(-1) - 1, masked positions filled with 1),
// docs/semantics.md §5. Packed rows are covered in test_packing.cpp.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collate.hpp"
#include "positions.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

TEST_SUITE("positions") {

TEST_CASE("a left-padded row: arange shifts real tokens, from_mask starts them at 0") {
  // mask [0,0,1,1,1]: cumsum [0,0,1,2,3], minus 1 [-1,-1,0,1,2], pads filled with 1 -> [1,1,0,1,2].
  const std::vector<int> mask{0, 0, 1, 1, 1};
  CHECK(position_ids_for_row(mask, PositionPolicy::Arange) == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(position_ids_for_row(mask, PositionPolicy::FromMask) == std::vector<int>{1, 1, 0, 1, 2});
}

TEST_CASE("a right-padded row: from_mask gives the real tokens the same positions as arange") {
  // mask [1,1,1,0,0]: cumsum - 1 = [0,1,2,2,2], pads -> 1: [0,1,2,1,1]. Real tokens 0,1,2 either way.
  const std::vector<int> mask{1, 1, 1, 0, 0};
  CHECK(position_ids_for_row(mask, PositionPolicy::FromMask) == std::vector<int>{0, 1, 2, 1, 1});
  CHECK(position_ids_for_row(mask, PositionPolicy::Arange) == std::vector<int>{0, 1, 2, 3, 4});
}

TEST_CASE("collate: position_ids follow the policy on a left-padded batch") {
  // Rows [3,4,5] and [1,2,3,4,5], left padding: row 0 = [pad,pad,3,4,5], mask [0,0,1,1,1].
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding_side = Side::Left;
  SUBCASE("arange (the default): the first real token of row 0 sits at position 2") {
    Batch b = collate({ids({3, 4, 5}), ids({1, 2, 3, 4, 5})}, o);
    CHECK(show(b.position_ids, 2, 5) == "[[0,1,2,3,4],[0,1,2,3,4]]");
  }
  SUBCASE("from_mask: real tokens start at 0, pads get 1") {
    o.position_ids = PositionPolicy::FromMask;
    Batch b = collate({ids({3, 4, 5}), ids({1, 2, 3, 4, 5})}, o);
    CHECK(show(b.attention_mask, 2, 5) == "[[0,0,1,1,1],[1,1,1,1,1]]");
    CHECK(show(b.position_ids, 2, 5) == "[[1,1,0,1,2],[0,1,2,3,4]]");
  }
}

TEST_CASE("from_mask follows the mask it is given, not the lengths") {
  // With an all-ones mask nothing is masked, so from_mask degenerates to arange — the left pads
  // still shift the real tokens (docs/semantics.md §5, §6.1: the all-ones mask is the bug, positions only follow it).
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding_side = Side::Left;
  o.position_ids = PositionPolicy::FromMask;
  o.attention_mask_policy = AttentionMaskPolicy::AllOnes;
  Batch b = collate({ids({3, 4, 5}), ids({1, 2, 3, 4, 5})}, o);
  CHECK(show(b.position_ids, 2, 5) == "[[0,1,2,3,4],[0,1,2,3,4]]");
}

TEST_CASE("an all-zero row under from_mask is all ones, never negative") {
  CHECK(position_ids_for_row({0, 0, 0}, PositionPolicy::FromMask) == std::vector<int>{1, 1, 1});
}

TEST_CASE("documents_from_positions: a new document wherever a position is not the last plus one") {
  // Row 0 [0,1,0,1,2,0]: starts at t=0, 2, 5 -> [0,0,1,1,1,2]. Row 1 [0,1,2,3,4,5] (arange): one.
  // Row 2 [1,1,0,1,2,3] (generate()'s left-pad positions): 1 after 1 and 0 after 1 both start one.
  CHECK(show(documents_from_positions({0, 1, 0, 1, 2, 0, 0, 1, 2, 3, 4, 5, 1, 1, 0, 1, 2, 3}, 3, 6)) ==
        "[0,0,1,1,1,2,0,0,0,0,0,0,0,1,2,2,2,2]");
}

}  // TEST_SUITE
