// test_packing.cpp — several examples in one row, the right way (DataCollatorWithFlattening,
// semantics.md §1.5, §3.4) and the classic wrong way (concatenation with an all-ones mask).
// Fixture: the header's example [5,6] and [7,8,9] packed into one row of 5 tokens.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collate.hpp"
#include "figures.hpp"
#include "packing.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

CollateOptions packing(Packing p) {
  CollateOptions o;
  o.packing = p;
  return o;
}

}  // namespace

TEST_SUITE("packing") {

TEST_CASE("flatten: one row, positions restart per example, no attention mask") {
  Batch b = collate({ids({5, 6}), ids({7, 8, 9})}, packing(Packing::Flatten));
  CHECK(b.B == 1);
  CHECK(b.T == 5);
  CHECK(show(b.input_ids) == "[5,6,7,8,9]");
  // position_ids += list(range(len(input_ids))) per example.
  CHECK(show(b.position_ids) == "[0,1,0,1,2]");
  // The kernel finds the boundaries from the position resets; a mask would switch that off (§3.4).
  CHECK_FALSE(b.has_attention_mask);
  CHECK(show(b.seq_lengths) == "[2,3]");
  CHECK(show(b.lengths) == "[5]");
  CHECK(show(b.segment_ids) == "[0,0,1,1,1]");
}

TEST_CASE("flatten: the first label of each example is -100 with reason boundary") {
  // labels += [-100] + labels[1:]: [-100,6] + [-100,8,9]. After the shift the last token of
  // example 0 (6) is never trained to predict the first token of example 1 (7).
  Batch b = collate({ids({5, 6}), ids({7, 8, 9})}, packing(Packing::Flatten));
  CHECK(show(b.labels) == "[-100,6,-100,8,9]");
  CHECK(reasons(b) == "boundary . boundary . .");
  RowFigures f = row_figures(b, 0, packing(Packing::Flatten));
  CHECK(f.ignored[static_cast<int>(IgnoreReason::Boundary)] == 2);
  // Scored after the shift: labels at t >= 1 that are not -100 -> 6, 8, 9.
  CHECK(f.targets == 3);
  CHECK(f.pads == 0);
  CHECK(f.real_tokens == 5);
}

TEST_CASE("concat_unsafe: all-ones mask, positions run on, boundary label kept") {
  Batch b = collate({ids({5, 6}), ids({7, 8, 9})}, packing(Packing::ConcatUnsafe));
  CHECK(b.B == 1);
  CHECK(show(b.input_ids) == "[5,6,7,8,9]");
  CHECK(b.has_attention_mask);
  CHECK(show(b.attention_mask) == "[1,1,1,1,1]");
  CHECK(show(b.position_ids) == "[0,1,2,3,4]");
  CHECK(show(b.labels) == "[5,6,7,8,9]");
  CHECK(reasons(b) == ". . . . .");
  CHECK(show(b.seq_lengths) == "[2,3]");
  // Targets 6, 7, 8, 9: the 7 is predicted from example 0's last token — cross-document.
  CHECK(row_figures(b, 0, packing(Packing::ConcatUnsafe)).targets == 4);
}

TEST_CASE("flatten keeps prompt masks; the boundary wins at an example's first token") {
  // Example 1 [7,8,9] with completion_mask [0,0,1]: labels [boundary, prompt, 9].
  Feature c = ids({7, 8, 9});
  c.completion_mask = std::vector<int>{0, 0, 1};
  Batch b = collate({ids({5, 6}), c}, packing(Packing::Flatten));
  CHECK(show(b.labels) == "[-100,6,-100,-100,9]");
  CHECK(reasons(b) == "boundary . boundary prompt .");
}

TEST_CASE("packing truncates each example first and sums the cut tokens") {
  // max_length 2: [5,6,7] -> [5,6] (1 cut), [8,9,10,11] -> [8,9] (2 cut): 3 in the one row.
  CollateOptions o = packing(Packing::Flatten);
  o.truncation = true;
  o.max_length = 2;
  Batch b = collate({ids({5, 6, 7}), ids({8, 9, 10, 11})}, o);
  CHECK(show(b.input_ids) == "[5,6,8,9]");
  CHECK(show(b.seq_lengths) == "[2,2]");
  CHECK(show(b.truncated_tokens) == "[3]");
  CHECK(row_figures(b, 0, o).truncated_tokens == 3);
}

TEST_CASE("a packed row has no pads, whatever the padding options say") {
  CollateOptions o = packing(Packing::Flatten);
  o.pad_to_multiple_of = 8;
  Batch b = collate({ids({5, 6}), ids({7, 8, 9})}, o);
  CHECK(b.T == 5);
  CHECK(show(b.lengths) == "[5]");
  for (auto p : b.is_pad) CHECK(p == 0);
}

TEST_CASE("pack called directly: the header's example") {
  CollateOptions o = packing(Packing::Flatten);
  Batch b = pack({ids({5, 6}), ids({7, 8, 9})}, {0, 0}, o);
  CHECK(show(b.input_ids) == "[5,6,7,8,9]");
  CHECK(show(b.position_ids) == "[0,1,0,1,2]");
  CHECK(show(b.labels) == "[-100,6,-100,8,9]");
}

}  // TEST_SUITE
