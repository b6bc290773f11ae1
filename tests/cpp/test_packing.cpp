// test_packing.cpp — several examples in one row, the right ways (DataCollatorWithFlattening,
// docs/semantics.md §4.1; TRL's padding-free collator with seq_lengths, §4.2) and the classic
// wrong way (concatenation with an all-ones mask, §4.4).
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
  o.pad_token_id = 0;
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
  // The kernel finds the boundaries from the position resets; a mask would switch that off (docs/semantics.md §4.3).
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

TEST_CASE("flatten never pads: padding max_length is ignored, pad_to_multiple_of is refused by name") {
  CollateOptions o = packing(Packing::Flatten);
  o.padding = Padding::MaxLength;
  o.max_length = 16;
  Batch b = collate({ids({5, 6}), ids({7, 8, 9})}, o);
  CHECK(b.T == 5);
  CHECK(show(b.lengths) == "[5]");
  for (auto p : b.is_pad) CHECK(p == 0);
  // DataCollatorWithFlattening has no pad_to_multiple_of; TRL's padding-free collator does.
  o.pad_to_multiple_of = 8;
  InputError e = collate_error({ids({5, 6})}, o);
  CHECK(e.field == "pad_to_multiple_of");
  CHECK(e.message.find("padding_free") != std::string::npos);
}

TEST_CASE("pack called directly: the header's example") {
  CollateOptions o = packing(Packing::Flatten);
  Batch b = pack({ids({5, 6}), ids({7, 8, 9})}, {0, 0}, o);
  CHECK(show(b.input_ids) == "[5,6,7,8,9]");
  CHECK(show(b.position_ids) == "[0,1,0,1,2]");
  CHECK(show(b.labels) == "[-100,6,-100,8,9]");
}

TEST_CASE("padding_free: seq_lengths restart the positions at every packed document (TRL >= 0.20)") {
  // Example 0 [5,6,7,8,9] was packed from documents of 2 and 3; example 1 [10,11] is one document.
  // get_position_ids_from_packed_seq_lengths: [0,1, 0,1,2] then [0,1] -> [[0,1,0,1,2,0,1]].
  // labels[position_ids == 0] = -100 (TRL >= 0.24): positions 0, 2, 5 lose their label.
  Feature a = ids({5, 6, 7, 8, 9});
  a.seq_lengths = std::vector<int>{2, 3};
  Feature c = ids({10, 11});
  c.seq_lengths = std::vector<int>{2};
  CollateOptions o = packing(Packing::PaddingFree);
  Batch b = collate({a, c}, o);
  CHECK(b.T == 7);
  CHECK_FALSE(b.has_attention_mask);
  CHECK(show(b.input_ids, 1, 7) == "[[5,6,7,8,9,10,11]]");
  CHECK(show(b.position_ids, 1, 7) == "[[0,1,0,1,2,0,1]]");
  CHECK(show(b.labels, 1, 7) == "[[-100,6,-100,8,9,-100,11]]");
  CHECK(reasons(b) == "boundary . boundary . . boundary .");
  CHECK(show(b.seq_lengths) == "[2,3,2]");
  CHECK(show(b.segment_ids, 1, 7) == "[[0,0,1,1,1,2,2]]");

  SUBCASE("flatten ignores seq_lengths: DataCollatorWithFlattening restarts per example only") {
    Batch f = collate({a, c}, packing(Packing::Flatten));
    CHECK(show(f.position_ids, 1, 7) == "[[0,1,2,3,4,0,1]]");
    CHECK(show(f.seq_lengths) == "[5,2]");
  }
}

TEST_CASE("padding_free without seq_lengths: each example is one document") {
  // [5,6] and [7,8,9]: positions [0,1,0,1,2], labels [-100,6,-100,8,9], same as flatten.
  Batch b = collate({ids({5, 6}), ids({7, 8, 9})}, packing(Packing::PaddingFree));
  CHECK(show(b.position_ids, 1, 5) == "[[0,1,0,1,2]]");
  CHECK(show(b.labels, 1, 5) == "[[-100,6,-100,8,9]]");
  CHECK(show(b.seq_lengths) == "[2,3]");
}

TEST_CASE("padding_free with pad_to_multiple_of pads the tail: pad id, label -100, position 0 (TRL >= 0.23)") {
  // 5 real tokens, multiple 4 -> T = 8: three tail pads of id 0, label -100, position 0, each its
  // own segment. lengths counts the 5 real tokens; seq_lengths lists the documents only.
  CollateOptions o = packing(Packing::PaddingFree);
  o.pad_to_multiple_of = 4;
  Batch b = collate({ids({5, 6}), ids({7, 8, 9})}, o);
  CHECK(b.T == 8);
  CHECK(show(b.input_ids, 1, 8) == "[[5,6,7,8,9,0,0,0]]");
  CHECK(show(b.position_ids, 1, 8) == "[[0,1,0,1,2,0,0,0]]");
  CHECK(show(b.labels, 1, 8) == "[[-100,6,-100,8,9,-100,-100,-100]]");
  CHECK(reasons(b) == "boundary . boundary . . padding padding padding");
  CHECK(show(std::vector<int>(b.is_pad.begin(), b.is_pad.end()), 1, 8) == "[[0,0,0,0,0,1,1,1]]");
  CHECK(show(b.segment_ids, 1, 8) == "[[0,0,1,1,1,2,3,4]]");
  CHECK(show(b.lengths) == "[5]");
  CHECK(show(b.seq_lengths) == "[2,3]");
  RowFigures f = row_figures(b, 0, o);
  CHECK(f.pads == 3);
  CHECK(f.real_tokens == 5);
  CHECK(f.ignored[static_cast<int>(IgnoreReason::Padding)] == 3);

  SUBCASE("already a multiple: nothing to pad, and then no pad id is needed") {
    o.pad_token_id.reset();
    CHECK(collate({ids({5, 6}), ids({7, 8})}, o).T == 4);
    InputError e = collate_error({ids({5, 6}), ids({7, 8, 9})}, o);
    CHECK(e.field == "pad_token_id");
    CHECK(e.message.find("from 5 to 8 tokens") != std::string::npos);
  }
}

TEST_CASE("packing needs no pad id: flatten and padding_free write no pad") {
  CollateOptions o;
  o.packing = Packing::Flatten;
  CHECK(collate({ids({5, 6}), ids({7})}, o).T == 3);
  o.packing = Packing::PaddingFree;
  CHECK(collate({ids({5, 6}), ids({7})}, o).T == 3);
}

TEST_CASE("seq_lengths are checked: positive, adding up to the example, all or none, untouched by truncation") {
  CollateOptions o = packing(Packing::PaddingFree);
  Feature a = ids({5, 6, 7});
  SUBCASE("a sum that is not the example's length") {
    a.seq_lengths = std::vector<int>{1, 1};
    InputError e = collate_error({a}, o);
    CHECK(e.field == "features[0].seq_lengths");
    CHECK(e.message.find("adds up to 2 but input_ids has 3") != std::string::npos);
  }
  SUBCASE("a zero-length document") {
    a.seq_lengths = std::vector<int>{3, 0};
    CHECK(collate_error({a}, o).field == "features[0].seq_lengths[1]");
  }
  SUBCASE("the first example has them, a later one not (TRL would fail with a KeyError)") {
    a.seq_lengths = std::vector<int>{3};
    CHECK(collate_error({a, ids({8})}, o).field == "features[1].seq_lengths");
  }
  SUBCASE("truncation that cuts an already-packed example") {
    a.seq_lengths = std::vector<int>{1, 2};
    o.truncation = true;
    o.max_length = 2;
    CHECK(collate_error({a}, o).field == "features[0].seq_lengths");
    o.max_length = 3;  // cuts nothing: fine
    CHECK(collate({a}, o).T == 3);
  }
}

TEST_CASE("empty examples in packed rows: padding_free and concat_unsafe add nothing, flatten refuses") {
  // DataCollatorWithFlattening writes [separator] + labels[1:] even for an empty example: one
  // label more than tokens. TRL's torch.cat simply adds nothing.
  Batch b = collate({ids({5, 6}), ids({}), ids({7})}, packing(Packing::PaddingFree));
  CHECK(show(b.input_ids, 1, 3) == "[[5,6,7]]");
  CHECK(show(b.seq_lengths) == "[2,1]");
  Batch u = collate({ids({5, 6}), ids({}), ids({7})}, packing(Packing::ConcatUnsafe));
  CHECK(show(u.input_ids, 1, 3) == "[[5,6,7]]");
  InputError e = collate_error({ids({5, 6}), ids({})}, packing(Packing::Flatten));
  CHECK(e.field == "features[1].input_ids");
  CHECK(e.message.find("separator") != std::string::npos);
}

TEST_CASE("padding_free_legacy: TRL 0.20-0.23 kept boundary labels and sent a mask (0 on tail pads in 0.23)") {
  // [5,6] and [7,8,9], pad_to_multiple_of 8: positions restart [0,1,0,1,2] + three tail pads at 0;
  // labels keep 7 at the second example's start (no labels[position == 0] rule before PR #4170);
  // the mask is ones_like per example padded with 0: [1,1,1,1,1,0,0,0].
  CollateOptions o = packing(Packing::PaddingFreeLegacy);
  o.pad_to_multiple_of = 8;
  Batch b = collate({ids({5, 6}), ids({7, 8, 9})}, o);
  CHECK(b.has_attention_mask);
  CHECK(show(b.attention_mask, 1, 8) == "[[1,1,1,1,1,0,0,0]]");
  CHECK(show(b.position_ids, 1, 8) == "[[0,1,0,1,2,0,0,0]]");
  CHECK(show(b.labels, 1, 8) == "[[5,6,7,8,9,-100,-100,-100]]");
  CHECK(reasons(b) == ". . . . . padding padding padding");

  SUBCASE("with seq_lengths TRL sent no mask (PR #3673), and still kept the boundary labels") {
    Feature packed = ids({5, 6, 7});
    packed.seq_lengths = std::vector<int>{1, 2};
    o.pad_to_multiple_of.reset();
    Batch p = collate({packed}, o);
    CHECK_FALSE(p.has_attention_mask);
    CHECK(show(p.position_ids, 1, 3) == "[[0,0,1]]");
    CHECK(show(p.labels, 1, 3) == "[[5,6,7]]");
  }
}

}  // TEST_SUITE
