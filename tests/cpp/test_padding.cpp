// test_padding.cpp — how long a padded batch is, which side the pads go on, and truncation.
//
// Rules: transformers' PreTrainedTokenizerBase._pad (docs/semantics.md §2.1, §2.2): LONGEST pads
// to the longest row, MAX_LENGTH to max_length, pad_to_multiple_of rounds up with
// ((n // m) + 1) * m when n % m != 0, and pads, mask zeros and pad labels all go on one side
// (§3.2; Open-Assistant #3657 is what happens when they do not). Truncation: §2.4. Empty
// examples and a missing pad id: §2.5.
// Fixtures: token id = its position in the example (1, 2, 3 ...), pad id 0, so every pad is
// visible at a glance. Not here: what labels the real tokens get (test_labels.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collate.hpp"
#include "figures.hpp"
#include "input_error.hpp"
#include "padding.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

TEST_SUITE("padding") {

TEST_CASE("longest pads every row to the longest row, on the right by default") {
  // [1,2,3] and [1,2]: T = 3; the short row gets one pad id 0, mask 0 and label -100 at the end.
  CollateOptions o;
  o.pad_token_id = 0;
  Batch b = collate({ids({1, 2, 3}), ids({1, 2})}, o);
  CHECK(b.B == 2);
  CHECK(b.T == 3);
  CHECK(show(b.input_ids, 2, 3) == "[[1,2,3],[1,2,0]]");
  CHECK(show(b.attention_mask, 2, 3) == "[[1,1,1],[1,1,0]]");
  CHECK(show(b.labels, 2, 3) == "[[1,2,3],[1,2,-100]]");
  CHECK(show(b.lengths) == "[3,2]");
  CHECK(show(b.truncated_tokens) == "[0,0]");
}

TEST_CASE("max_length pads every row to max_length even when all rows are shorter") {
  // Rows of 3 and 2 tokens, max_length 5: T = 5, so 2 and 3 pads.
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding = Padding::MaxLength;
  o.max_length = 5;
  Batch b = collate({ids({1, 2, 3}), ids({1, 2})}, o);
  CHECK(b.T == 5);
  CHECK(show(b.input_ids, 2, 5) == "[[1,2,3,0,0],[1,2,0,0,0]]");
  CHECK(show(b.attention_mask, 2, 5) == "[[1,1,1,0,0],[1,1,0,0,0]]");
  CHECK(show(b.labels, 2, 5) == "[[1,2,3,-100,-100],[1,2,-100,-100,-100]]");
}

TEST_CASE("do_not_pad keeps equal rows as they are") {
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding = Padding::DoNotPad;
  Batch b = collate({ids({1, 2}), ids({3, 4})}, o);
  CHECK(b.T == 2);
  CHECK(show(b.input_ids, 2, 2) == "[[1,2],[3,4]]");
  CHECK(show(b.attention_mask, 2, 2) == "[[1,1],[1,1]]");
}

TEST_CASE("do_not_pad with ragged rows is an InputError naming the first row that differs") {
  // Like torch.tensor on ragged lists: the rows cannot form a tensor.
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding = Padding::DoNotPad;
  InputError e = collate_error({ids({1, 2}), ids({1, 2}), ids({1})}, o);
  CHECK(e.field == "features[2].input_ids");
  CHECK(e.message.find("but features[0] has 2") != std::string::npos);
  CHECK(e.message.find("do_not_pad") != std::string::npos);
}

TEST_CASE("pad_to_multiple_of rounds the longest row up") {
  // Lengths 3 and 5, multiple 4: 5 % 4 != 0, so ((5 // 4) + 1) * 4 = 8.
  CollateOptions o;
  o.pad_token_id = 0;
  o.pad_to_multiple_of = 4;
  Batch b = collate({ids({1, 2, 3}), ids({1, 2, 3, 4, 5})}, o);
  CHECK(b.T == 8);
  CHECK(show(b.input_ids, 2, 8) == "[[1,2,3,0,0,0,0,0],[1,2,3,4,5,0,0,0]]");
  CHECK(show(b.attention_mask, 2, 8) == "[[1,1,1,0,0,0,0,0],[1,1,1,1,1,0,0,0]]");

  SUBCASE("a length that is already a multiple is left alone") {
    // 4 % 4 == 0: _pad does not round.
    Batch c = collate({ids({1, 2, 3, 4}), ids({1})}, o);
    CHECK(c.T == 4);
  }
}

TEST_CASE("pad_to_multiple_of rounds max_length up") {
  // max_length 6, multiple 4: 6 % 4 != 0, so ((6 // 4) + 1) * 4 = 8 — longer than max_length.
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding = Padding::MaxLength;
  o.max_length = 6;
  o.pad_to_multiple_of = 4;
  Batch b = collate({ids({1, 2, 3})}, o);
  CHECK(b.T == 8);
  CHECK(show(b.input_ids, 1, 8) == "[[1,2,3,0,0,0,0,0]]");
}

TEST_CASE("padded_length and round_up follow _pad's arithmetic") {
  CHECK(round_up(5, 4) == 8);
  CHECK(round_up(8, 4) == 8);
  CHECK(round_up(1, 8) == 8);
  CHECK(round_up(7, 1) == 7);

  CollateOptions o;
  o.pad_token_id = 0;
  CHECK(padded_length({3, 5}, o) == 5);
  o.pad_to_multiple_of = 4;
  CHECK(padded_length({3, 5}, o) == 8);
  o.padding = Padding::MaxLength;
  o.max_length = 6;
  CHECK(padded_length({3, 5}, o) == 8);
  o.pad_to_multiple_of.reset();
  CHECK(padded_length({3, 5}, o) == 6);
}

TEST_CASE("pad_row puts the pad value on the requested side") {
  // The header's example: pad_row({7,8}, 4, 0, Left) -> {0,0,7,8}.
  CHECK(show(pad_row({7, 8}, 4, 0, Side::Left)) == "[0,0,7,8]");
  CHECK(show(pad_row({7, 8}, 4, 0, Side::Right)) == "[7,8,0,0]");
  CHECK(show(pad_row({7, 8}, 2, 0, Side::Right)) == "[7,8]");
  CHECK(show(pad_row({7, 8}, 4, -100, Side::Left)) == "[-100,-100,7,8]");
}

TEST_CASE("left padding puts pad ids, mask zeros and pad labels all on the left") {
  // Open-Assistant #3657 was inputs padded left and label masks padded right; here every [B,T]
  // buffer must agree: row 1 = [pad, 1, 2].
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding_side = Side::Left;
  Batch b = collate({ids({1, 2, 3}), ids({1, 2})}, o);
  CHECK(show(b.input_ids, 2, 3) == "[[1,2,3],[0,1,2]]");
  CHECK(show(b.attention_mask, 2, 3) == "[[1,1,1],[0,1,1]]");
  CHECK(show(b.labels, 2, 3) == "[[1,2,3],[-100,1,2]]");
  CHECK(b.label_reasons[b.at(1, 0)] == IgnoreReason::Padding);
  CHECK(b.is_pad[b.at(1, 0)] == 1);
  CHECK(b.is_pad[b.at(1, 2)] == 0);

  SUBCASE("left padding with pad_to_multiple_of puts every pad on the left") {
    o.pad_to_multiple_of = 4;
    Batch c = collate({ids({1, 2, 3}), ids({1, 2})}, o);
    CHECK(show(c.input_ids, 2, 4) == "[[0,1,2,3],[0,0,1,2]]");
    CHECK(show(c.attention_mask, 2, 4) == "[[0,1,1,1],[0,0,1,1]]");
    CHECK(show(c.labels, 2, 4) == "[[-100,1,2,3],[-100,-100,1,2]]");
  }
}

TEST_CASE("given labels are padded on the same side as input_ids") {
  // Labels [-100,2,3] / [-100,2]: the feature's own -100 stays where it was, the pad label
  // goes where the pad id goes.
  CollateOptions o;
  o.pad_token_id = 0;
  Feature a = ids({1, 2, 3}), c = ids({1, 2});
  a.labels = std::vector<int>{-100, 2, 3};
  c.labels = std::vector<int>{-100, 2};
  Batch right = collate({a, c}, o);
  CHECK(show(right.labels, 2, 3) == "[[-100,2,3],[-100,2,-100]]");
  o.padding_side = Side::Left;
  Batch left = collate({a, c}, o);
  CHECK(show(left.labels, 2, 3) == "[[-100,2,3],[-100,-100,2]]");
  CHECK(left.label_reasons[left.at(1, 0)] == IgnoreReason::Padding);
  CHECK(left.label_reasons[left.at(1, 1)] == IgnoreReason::Given);
}

TEST_CASE("truncation on the right keeps the start of a row and counts the cut tokens") {
  // [1,2,3,4,5] cut to max_length 3 -> [1,2,3]: 2 tokens gone. [1,2] is untouched and padded.
  CollateOptions o;
  o.pad_token_id = 0;
  o.truncation = true;
  o.max_length = 3;
  Feature f = ids({1, 2, 3, 4, 5});
  f.labels = std::vector<int>{-100, -100, 3, 4, 5};
  f.completion_mask = std::vector<int>{0, 0, 1, 1, 1};
  Batch b = collate({f, ids({1, 2})}, o);
  CHECK(b.T == 3);
  CHECK(show(b.input_ids, 2, 3) == "[[1,2,3],[1,2,0]]");
  // labels and completion_mask are cut in step with input_ids: [-100,-100,3].
  CHECK(show(b.labels, 2, 3) == "[[-100,-100,3],[1,2,-100]]");
  CHECK(show(b.truncated_tokens) == "[2,0]");
  CHECK(row_figures(b, 0, o).truncated_tokens == 2);
  CHECK(row_figures(b, 1, o).truncated_tokens == 0);
}

TEST_CASE("truncation on the left keeps the end of a row") {
  // [1,2,3,4,5] -> [3,4,5]; the parallel labels [-100,-100,3,4,5] -> [3,4,5].
  CollateOptions o;
  o.pad_token_id = 0;
  o.truncation = true;
  o.truncation_side = Side::Left;
  o.max_length = 3;
  Feature f = ids({1, 2, 3, 4, 5});
  f.labels = std::vector<int>{-100, -100, 3, 4, 5};
  Batch b = collate({f}, o);
  CHECK(show(b.input_ids, 1, 3) == "[[3,4,5]]");
  CHECK(show(b.labels, 1, 3) == "[[3,4,5]]");
  CHECK(show(b.truncated_tokens) == "[2]");
}

TEST_CASE("truncate_feature cuts every parallel array and returns how many tokens it removed") {
  // The header's example: [1,2,3,4,5], max_length 3, Left -> [3,4,5], returns 2.
  Feature f = ids({1, 2, 3, 4, 5});
  f.assistant_masks = std::vector<int>{0, 0, 1, 1, 0};
  CHECK(truncate_feature(f, 3, Side::Left) == 2);
  CHECK(show(f.input_ids) == "[3,4,5]");
  CHECK(show(*f.assistant_masks) == "[1,1,0]");
  CHECK(truncate_feature(f, 5, Side::Left) == 0);
  CHECK(show(f.input_ids) == "[3,4,5]");
}

TEST_CASE("truncation with padding max_length gives exactly max_length") {
  // Rows of 5 and 2 tokens, max_length 4: [1,2,3,4] (1 cut) and [1,2,0,0].
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding = Padding::MaxLength;
  o.truncation = true;
  o.max_length = 4;
  Batch b = collate({ids({1, 2, 3, 4, 5}), ids({1, 2})}, o);
  CHECK(show(b.input_ids, 2, 4) == "[[1,2,3,4],[1,2,0,0]]");
  CHECK(show(b.truncated_tokens) == "[1,0]");
}

TEST_CASE("a row longer than max_length without truncation is an InputError naming features[i].input_ids") {
  // tokenizer.pad never truncates; silently cutting would hide the problem, so the error says how
  // to fix it.
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding = Padding::MaxLength;
  o.max_length = 3;
  InputError e = collate_error({ids({1, 2}), ids({1, 2, 3, 4})}, o);
  CHECK(e.field == "features[1].input_ids");
  CHECK(e.message.find("4 tokens") != std::string::npos);
  CHECK(e.message.find("max_length 3") != std::string::npos);
  CHECK(e.message.find("truncation") != std::string::npos);
}

TEST_CASE("an empty example is padded like any other: all pads, mask 0, pad labels") {
  // [1,2] and []: T = 2; row 1 is [0,0] with mask [0,0] and labels [-100,-100] (reason padding).
  Batch b = collate({ids({1, 2}), ids({})}, pad0());
  CHECK(show(b.input_ids, 2, 2) == "[[1,2],[0,0]]");
  CHECK(show(b.attention_mask, 2, 2) == "[[1,1],[0,0]]");
  CHECK(show(b.labels, 2, 2) == "[[1,2],[-100,-100]]");
  CHECK(reasons(b) == ". . | padding padding");
  CHECK(show(b.lengths) == "[2,0]");
  RowFigures f = row_figures(b, 1, pad0());
  CHECK(f.real_tokens == 0);
  CHECK(f.pads == 2);
  CHECK(f.pad_share == 1.0);

  SUBCASE("every example empty: a [B, 0] batch, as tokenizer.pad returns") {
    Batch e = collate({ids({}), ids({})}, pad0());
    CHECK(e.T == 0);
    CHECK(e.input_ids.empty());
  }
  SUBCASE("padding max_length 3 pads it to 3") {
    CollateOptions o = pad0();
    o.padding = Padding::MaxLength;
    o.max_length = 3;
    CHECK(show(collate({ids({})}, o).input_ids, 1, 3) == "[[0,0,0]]");
  }
}

TEST_CASE("a pad id is needed only where a pad is written") {
  CollateOptions o;  // no pad_token_id
  SUBCASE("equal rows: nothing is padded, nothing is asked") {
    Batch b = collate({ids({1, 2}), ids({3, 4})}, o);
    CHECK(show(b.input_ids, 2, 2) == "[[1,2],[3,4]]");
  }
  SUBCASE("mask_pad_id without a pad id masks nothing (transformers masks only if pad_token_id is not None)") {
    o.label_policy = LabelPolicy::MaskPadId;
    CHECK(show(collate({ids({0, 2})}, o).labels, 1, 2) == "[[0,2]]");
  }
  SUBCASE("input_ids_ne_pad without a pad id: no id equals it, every position 1") {
    o.attention_mask_policy = AttentionMaskPolicy::InputIdsNePad;
    CHECK(show(collate({ids({0, 2})}, o).attention_mask, 1, 2) == "[[1,1]]");
  }
  SUBCASE("a row to pad: the error names pad_token_id, the row and the lengths") {
    InputError e = collate_error({ids({1, 2, 3}), ids({4})}, o);
    CHECK(e.field == "pad_token_id");
    CHECK(e.message.find("features[1] must be padded from 1 to 3 tokens") != std::string::npos);
  }
  SUBCASE("pad_to_multiple_of that rounds up needs one too") {
    o.pad_to_multiple_of = 4;
    CHECK(collate_error({ids({1, 2})}, o).field == "pad_token_id");
  }
}

TEST_CASE("pad_to_multiple_of 0 is an InputError") {
  CollateOptions o;
  o.pad_token_id = 0;
  o.pad_to_multiple_of = 0;
  InputError e = collate_error({ids({1, 2})}, o);
  CHECK(e.field == "pad_to_multiple_of");
  CHECK(e.message.find(">= 1") != std::string::npos);
  o.pad_to_multiple_of = -4;
  CHECK(collate_error({ids({1, 2})}, o).field == "pad_to_multiple_of");
}

TEST_CASE("options that cannot be honoured are InputErrors naming the option") {
  CollateOptions o;
  o.pad_token_id = 0;
  SUBCASE("padding max_length without max_length") {
    o.padding = Padding::MaxLength;
    CHECK(collate_error({ids({1})}, o).field == "max_length");
  }
  SUBCASE("truncation without max_length") {
    o.truncation = true;
    CHECK(collate_error({ids({1})}, o).field == "max_length");
  }
  SUBCASE("max_length 0") {
    o.max_length = 0;
    CHECK(collate_error({ids({1})}, o).field == "max_length");
  }
  SUBCASE("no features") {
    CHECK(collate_error({}, o).field == "features");
  }
  SUBCASE("truncation with max_length not a multiple of pad_to_multiple_of (transformers refuses it)") {
    // _get_padding_truncation_strategies: truncation on, padding on, 10 % 8 != 0 -> ValueError.
    o.truncation = true;
    o.max_length = 10;
    o.pad_to_multiple_of = 8;
    InputError e = collate_error({ids({1})}, o);
    CHECK(e.field == "max_length");
    CHECK(e.message.find("not a multiple of pad_to_multiple_of 8") != std::string::npos);
    o.max_length = 16;  // a multiple: fine, and T = 16 under max_length padding
    o.padding = Padding::MaxLength;
    CHECK(collate({ids({1})}, o).T == 16);
    o.max_length = 10;
    o.padding = Padding::DoNotPad;  // padding off: transformers only checks when both are on
    CHECK(collate({ids({1})}, o).T == 1);
  }
  SUBCASE("a negative token id") {
    CHECK(collate_error({ids({1, -3})}, o).field == "features[0].input_ids[1]");
  }
  SUBCASE("an id outside vocab_size") {
    o.vocab_size = 5;
    InputError e = collate_error({ids({1, 2}), ids({1, 2, 5})}, o);
    CHECK(e.field == "features[1].input_ids[2]");
    CHECK(e.message.find("vocab_size 5") != std::string::npos);
  }
}

TEST_CASE("max_length 2^31-1 rounded up to a multiple of 4 is refused by name, not overflowed") {
  // Regression test (was a core bug): max_length INT_MAX rounded up to a multiple of 4 is 2^31, which
  // overflows int in round_up (padding.cpp:29). The request is bad input, so the answer must be an
  // InputError that names an option the request actually set.
  CollateOptions o;
  o.pad_token_id = 0;
  o.padding = Padding::MaxLength;
  o.max_length = 2147483647;
  o.pad_to_multiple_of = 4;
  InputError e = collate_error({ids({1, 2})}, o);
  CHECK((e.field == "max_length" || e.field == "pad_to_multiple_of"));
}

TEST_CASE("a batch padded past the token limit names the option that made it so big") {
  SUBCASE("max_length") {
    // 3 rows x 400000 = 1.2M padded tokens, over the 2^20 limit: max_length is to blame.
    CollateOptions o;
    o.pad_token_id = 0;
    o.padding = Padding::MaxLength;
    o.max_length = 400000;
    CHECK(collate_error({ids({1}), ids({1}), ids({1})}, o).field == "max_length");
  }
  SUBCASE("pad_to_multiple_of without max_length") {
    // Regression test (was a core bug): collate.cpp:103 always names max_length, even when the request
    // has none and pad_to_multiple_of (2^21 here) is what pads a 2-token row past the limit.
    CollateOptions o;
    o.pad_token_id = 0;
    o.pad_to_multiple_of = 1 << 21;
    CHECK(collate_error({ids({1, 2})}, o).field == "pad_to_multiple_of");
  }
}

}  // TEST_SUITE
