// test_labels.cpp — the label policies and the reason behind every -100 (labels.cpp via collate).
//
// Rules: DataCollatorForLanguageModeling masks by *value* and overwrites given labels
// (docs/semantics.md §3.1, transformers #23530, #26357); DataCollatorForSeq2Seq / TRL >= 0.16.1
// mask by *position* with label_pad_token_id (§3.2, §3.3); TRL's completion_mask /
// assistant_masks set -100 where they are 0 (§3.3). Labels stay unshifted (§1.1), except that
// seq2seq labels under "given" may have their own length (§3.2).
// Fixture for pad == eos: pad == eos == 2, rows [5,6,2] and [7,2], each ending in a real EOS.
// Reasons are printed one row at a time: "." = trained, otherwise the JSON reason name.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "collate.hpp"
#include "figures.hpp"
#include "input_error.hpp"
#include "labels.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

CollateOptions pad_is_eos(LabelPolicy policy) {
  CollateOptions o;
  o.pad_token_id = 2;
  o.eos_token_id = 2;
  o.label_policy = policy;
  return o;
}

}  // namespace

TEST_SUITE("labels") {

TEST_CASE("input_ids policy: labels are the padded input_ids, so pads are trained targets") {
  // pad 0: row 1 [7,2,0] has label 0 at the pad, with no reason (it is trained).
  CollateOptions o;
  o.pad_token_id = 0;
  o.eos_token_id = 2;
  o.label_policy = LabelPolicy::InputIds;
  Batch b = collate({ids({5, 6, 2}), ids({7, 2})}, o);
  CHECK(show(b.labels, 2, 3) == "[[5,6,2],[7,2,0]]");
  CHECK(reasons(b) == ". . . | . . .");
  // Shifted targets of row 1: labels[1]=2 (EOS), labels[2]=0 (the pad) -> one pad target.
  RowFigures f = row_figures(b, 1, o);
  CHECK(f.targets == 2);
  CHECK(f.pad_targets == 1);
}

TEST_CASE("input_ids policy ignores the feature's own labels") {
  Feature f = ids({5, 6, 7});
  f.labels = std::vector<int>{-100, -100, 7};
  CollateOptions o;
  o.pad_token_id = 0;
  o.label_policy = LabelPolicy::InputIds;
  Batch b = collate({f}, o);
  CHECK(show(b.labels, 1, 3) == "[[5,6,7]]");
}

TEST_CASE("pad == eos masks real EOS under mask_pad_id (transformers #23530)") {
  // labels = input_ids.clone(); labels[labels == pad_token_id] = -100 — by value, so the real
  // EOS of each row is lost (reason pad_id); the pad itself gets reason padding.
  CollateOptions o = pad_is_eos(LabelPolicy::MaskPadId);
  Batch b = collate({ids({5, 6, 2}), ids({7, 2})}, o);
  CHECK(show(b.labels, 2, 3) == "[[5,6,-100],[7,-100,-100]]");
  CHECK(reasons(b) == ". . pad_id | . pad_id padding");
  // No row ever trains "emit EOS": the model never learns to stop.
  CHECK(row_figures(b, 0, o).eos_targets == 0);
  CHECK(row_figures(b, 1, o).eos_targets == 0);
  CHECK(row_figures(b, 0, o).ignored[static_cast<int>(IgnoreReason::PadId)] == 1);
}

TEST_CASE("pad == eos keeps real EOS under mask_padding (TRL >= 0.16.1, DataCollatorForSeq2Seq)") {
  // Masking by position: only the pad at row 1, t=2 is -100; both real EOS labels stay 2.
  CollateOptions o = pad_is_eos(LabelPolicy::MaskPadding);
  Batch b = collate({ids({5, 6, 2}), ids({7, 2})}, o);
  CHECK(show(b.labels, 2, 3) == "[[5,6,2],[7,2,-100]]");
  CHECK(reasons(b) == ". . . | . . padding");
  // Each EOS sits at t >= 1, so after the shift it is a scored target: 1 per row.
  CHECK(row_figures(b, 0, o).eos_targets == 1);
  CHECK(row_figures(b, 1, o).eos_targets == 1);
}

TEST_CASE("label_real_tokens: the header's pad == eos example") {
  // input_ids [5,6,2], pad == eos == 2: MaskPadId -> [5,6,-100] (PadId); MaskPadding -> [5,6,2].
  RowLabels by_value = label_real_tokens(ids({5, 6, 2}), pad_is_eos(LabelPolicy::MaskPadId));
  CHECK(by_value.labels == std::vector<int>{5, 6, -100});
  CHECK(by_value.reasons[2] == IgnoreReason::PadId);
  RowLabels by_position = label_real_tokens(ids({5, 6, 2}), pad_is_eos(LabelPolicy::MaskPadding));
  CHECK(by_position.labels == std::vector<int>{5, 6, 2});
  CHECK(by_position.reasons[2] == IgnoreReason::None);
}

TEST_CASE("mask_pad_id overwrites the labels a feature brought (transformers #26357)") {
  // The prompt mask [-100,-100,7,8] is discarded: labels become input_ids again.
  Feature f = ids({5, 6, 7, 8});
  f.labels = std::vector<int>{-100, -100, 7, 8};
  CollateOptions o;
  o.pad_token_id = 0;
  o.label_policy = LabelPolicy::MaskPadId;
  Batch b = collate({f}, o);
  CHECK(show(b.labels, 1, 4) == "[[5,6,7,8]]");
  CHECK(reasons(b) == ". . . .");
}

TEST_CASE("mask_padding uses the feature's own labels when given, else a copy of input_ids") {
  Feature with = ids({5, 6, 7});
  with.labels = std::vector<int>{-100, 6, 7};
  Batch b = collate({with, ids({8, 9})}, pad0());
  CHECK(show(b.labels, 2, 3) == "[[-100,6,7],[8,9,-100]]");
  CHECK(reasons(b) == "given . . | . . padding");
}

TEST_CASE("given policy with label_pad_token_id -100: pads are not trained") {
  Feature a = ids({5, 6, 7}), c = ids({8, 9});
  a.labels = std::vector<int>{-100, 6, 7};
  c.labels = std::vector<int>{-100, 9};
  CollateOptions o;
  o.pad_token_id = 0;
  o.label_policy = LabelPolicy::Given;
  Batch b = collate({a, c}, o);
  CHECK(show(b.labels, 2, 3) == "[[-100,6,7],[-100,9,-100]]");
  CHECK(reasons(b) == "given . . | given . padding");
  CHECK(row_figures(b, 1, o).pad_targets == 0);
}

TEST_CASE("given policy with label_pad_token_id 0: pads become trained targets of token 0") {
  // llama-cookbook #73 style: a pad label that is a real id is a target like any other. Row 1's
  // labels [-100,9,0]: shifted targets are 9 (t=1) and 0 (t=2, a pad) -> 2 targets, 1 at a pad.
  Feature a = ids({5, 6, 7}), c = ids({8, 9});
  a.labels = std::vector<int>{-100, 6, 7};
  c.labels = std::vector<int>{-100, 9};
  CollateOptions o;
  o.pad_token_id = 0;
  o.label_policy = LabelPolicy::Given;
  o.label_pad_token_id = 0;
  Batch b = collate({a, c}, o);
  CHECK(show(b.labels, 2, 3) == "[[-100,6,7],[-100,9,0]]");
  CHECK(reasons(b) == "given . . | given . .");
  RowFigures f = row_figures(b, 1, o);
  CHECK(f.targets == 2);
  CHECK(f.pad_targets == 1);
}

TEST_CASE("given policy needs every example's labels") {
  Feature a = ids({5, 6});
  a.labels = std::vector<int>{5, 6};
  CollateOptions o;
  o.pad_token_id = 0;
  o.label_policy = LabelPolicy::Given;
  InputError e = collate_error({a, ids({7})}, o);
  CHECK(e.field == "features[1].labels");
  CHECK(e.message.find("given") != std::string::npos);
}

TEST_CASE("completion_mask 0 sets -100 with reason prompt") {
  // TRL: labels[completion_mask == 0] = -100. ids [1,2,3,4], mask [0,0,1,1] -> [-100,-100,3,4].
  Feature f = ids({1, 2, 3, 4});
  f.completion_mask = std::vector<int>{0, 0, 1, 1};
  Batch b = collate({f}, pad0());
  CHECK(show(b.labels, 1, 4) == "[[-100,-100,3,4]]");
  CHECK(reasons(b) == "prompt prompt . .");
}

TEST_CASE("assistant_masks 0 sets -100 with reason prompt") {
  // Roles [user, assistant, assistant, user]: mask [0,1,1,0] -> labels [-100,2,3,-100].
  Feature f = ids({1, 2, 3, 4});
  f.assistant_masks = std::vector<int>{0, 1, 1, 0};
  Batch b = collate({f}, pad0());
  CHECK(show(b.labels, 1, 4) == "[[-100,2,3,-100]]");
  CHECK(reasons(b) == "prompt . . prompt");
}

TEST_CASE("completion_mask on top of a feature's own -100 keeps the reason given") {
  Feature f = ids({1, 2, 3});
  f.labels = std::vector<int>{-100, 2, 3};
  f.completion_mask = std::vector<int>{0, 0, 1};
  Batch b = collate({f}, pad0());
  CHECK(show(b.labels, 1, 3) == "[[-100,-100,3]]");
  CHECK(reasons(b) == "given prompt .");
}

TEST_CASE("completion_mask and assistant_masks must be 0/1 lists as long as input_ids") {
  CollateOptions o;
  o.pad_token_id = 0;
  Feature f = ids({1, 2, 3});
  SUBCASE("a value other than 0 or 1") {
    f.completion_mask = std::vector<int>{0, 2, 1};
    InputError e = collate_error({f}, o);
    CHECK(e.field == "features[0].completion_mask[1]");
    CHECK(e.message.find("0 or 1") != std::string::npos);
  }
  SUBCASE("the wrong length") {
    f.assistant_masks = std::vector<int>{0, 1, 1, 1};
    CHECK(collate_error({f}, o).field == "features[0].assistant_masks");
  }
}

TEST_CASE("labels one shorter than input_ids get the 'shifted already?' hint") {
  // Pre-shifting labels is the double-shift bug (docs/semantics.md §1.1, transformers #32944).
  Feature f = ids({1, 2, 3});
  f.labels = std::vector<int>{2, 3};
  InputError e = collate_error({ids({1}), f}, pad0());
  CHECK(e.field == "features[1].labels");
  CHECK(e.message.find("has 2 entries but input_ids has 3") != std::string::npos);
  CHECK(e.message.find("shifted") != std::string::npos);
}

TEST_CASE("a given label outside the vocabulary is an InputError naming it") {
  Feature f = ids({1, 2, 3});
  f.labels = std::vector<int>{-100, 2, 9};
  CollateOptions o;
  o.pad_token_id = 0;
  o.vocab_size = 5;
  CHECK(collate_error({f}, o).field == "features[0].labels[2]");
}

TEST_CASE("a negative label other than -100 is never a target: reason given, not counted") {
  // llama-cookbook #73 uses -1 (with ignore_index=-1 in its loss). Labels [-1, 2, 3], shift:
  // label 0 is -1 (ignored, reason given); 2 and 3 are trained and scored -> 2 targets.
  Feature f = ids({1, 2, 3});
  f.labels = std::vector<int>{-1, 2, 3};
  CollateOptions o;
  Batch b = collate({f}, o);
  CHECK(show(b.labels, 1, 3) == "[[-1,2,3]]");
  CHECK(reasons(b) == "given . .");
  RowFigures r = row_figures(b, 0, o);
  CHECK(r.label_tokens == 2);
  CHECK(r.targets == 2);
  CHECK(r.ignored[static_cast<int>(IgnoreReason::Given)] == 1);
}

TEST_CASE("label_pad_token_id may be any integer: -1 pads are padding, not targets (DataCollatorForSeq2Seq)") {
  // [1,2,3] and [4,5] under given labels = input_ids, label_pad_token_id -1: the short row's
  // label pad is -1, reason padding; it is neither a label token nor a pad target.
  Feature a = ids({1, 2, 3}), c = ids({4, 5});
  a.labels = a.input_ids;
  c.labels = c.input_ids;
  CollateOptions o;
  o.pad_token_id = 0;
  o.label_policy = LabelPolicy::Given;
  o.label_pad_token_id = -1;
  Batch b = collate({a, c}, o);
  CHECK(show(b.labels, 2, 3) == "[[1,2,3],[4,5,-1]]");
  CHECK(reasons(b) == ". . . | . . padding");
  RowFigures r = row_figures(b, 1, o);
  CHECK(r.label_tokens == 2);
  CHECK(r.pad_targets == 0);
  CHECK(r.ignored[static_cast<int>(IgnoreReason::Padding)] == 1);
  o.label_pad_token_id = -1000000;  // any integer
  CHECK(show(collate({a, c}, o).labels, 2, 3) == "[[1,2,3],[4,5,-1000000]]");
}

TEST_CASE("pad_label: the label and reason a pad position gets under each policy") {
  CollateOptions o;
  o.pad_token_id = 0;
  o.label_policy = LabelPolicy::InputIds;
  CHECK(pad_label(o) == std::pair<int, IgnoreReason>{0, IgnoreReason::None});
  o.label_policy = LabelPolicy::MaskPadId;
  CHECK(pad_label(o) == std::pair<int, IgnoreReason>{-100, IgnoreReason::Padding});
  o.label_policy = LabelPolicy::MaskPadding;
  CHECK(pad_label(o) == std::pair<int, IgnoreReason>{-100, IgnoreReason::Padding});
  o.label_policy = LabelPolicy::Given;
  o.label_pad_token_id = 0;
  CHECK(pad_label(o) == std::pair<int, IgnoreReason>{0, IgnoreReason::None});
}

TEST_CASE("every -100 reason of collate appears where expected") {
  // padding: a pad under mask_padding; prompt: completion_mask 0; pad_id: a real token equal to
  // the pad id under mask_pad_id; given: the feature's own -100. (boundary: test_packing.cpp;
  // user: test_inspect.cpp.)
  SUBCASE("padding, prompt and given in one batch") {
    Feature a = ids({1, 2, 3});
    a.labels = std::vector<int>{-100, 2, 3};
    Feature c = ids({4, 5});
    c.completion_mask = std::vector<int>{0, 1};
    Batch b = collate({a, c}, pad0());
    CHECK(reasons(b) == "given . . | prompt . padding");
    RowFigures f0 = row_figures(b, 0, pad0());
    RowFigures f1 = row_figures(b, 1, pad0());
    CHECK(f0.ignored[static_cast<int>(IgnoreReason::Given)] == 1);
    CHECK(f1.ignored[static_cast<int>(IgnoreReason::Prompt)] == 1);
    CHECK(f1.ignored[static_cast<int>(IgnoreReason::Padding)] == 1);
  }
  SUBCASE("pad_id: a real token that happens to be the pad id") {
    CollateOptions o;
    o.pad_token_id = 0;
    o.label_policy = LabelPolicy::MaskPadId;
    Batch b = collate({ids({0, 5, 6})}, o);
    CHECK(show(b.labels, 1, 3) == "[[-100,5,6]]");
    CHECK(reasons(b) == "pad_id . .");
  }
  SUBCASE("reason names as written in JSON") {
    CHECK(std::string(reason_name(IgnoreReason::None)) == "");
    CHECK(std::string(reason_name(IgnoreReason::Padding)) == "padding");
    CHECK(std::string(reason_name(IgnoreReason::Prompt)) == "prompt");
    CHECK(std::string(reason_name(IgnoreReason::PadId)) == "pad_id");
    CHECK(std::string(reason_name(IgnoreReason::Boundary)) == "boundary");
    CHECK(std::string(reason_name(IgnoreReason::Given)) == "given");
    CHECK(std::string(reason_name(IgnoreReason::User)) == "user");
  }
}

TEST_CASE("given labels with their own length are padded to the longest label (DataCollatorForSeq2Seq)") {
  // Encoder inputs [1,2,3] and [4]; decoder targets [7,8] and [9,10,11,12] (§3.2).
  //   inputs: T = 3 -> [[1,2,3],[4,0,0]]; labels on their own: L = 4 -> [[7,8,-100,-100],[9,10,11,12]].
  Feature a = ids({1, 2, 3}), c = ids({4});
  a.labels = std::vector<int>{7, 8};
  c.labels = std::vector<int>{9, 10, 11, 12};
  CollateOptions o = pad0();
  o.label_policy = LabelPolicy::Given;
  o.shift = false;  // encoder-decoder labels are scored as they are (§1.1)
  Batch b = collate({a, c}, o);
  CHECK(b.T == 3);
  CHECK(b.L == 4);
  CHECK(show(b.input_ids, 2, 3) == "[[1,2,3],[4,0,0]]");
  CHECK(show(b.labels, 2, 4) == "[[7,8,-100,-100],[9,10,11,12]]");
  CHECK(reasons(b) == ". . padding padding | . . . .");
  // Row 0: 2 trained labels, no input pads; row 1: 4 labels, 2 input pads.
  RowFigures r0 = row_figures(b, 0, o), r1 = row_figures(b, 1, o);
  CHECK(r0.label_tokens == 2);
  CHECK(r0.pads == 0);
  CHECK(r1.label_tokens == 4);
  CHECK(r1.targets == 4);
  CHECK(r1.pads == 2);

  SUBCASE("pad_to_multiple_of 3 rounds each on its own: T = 3, L = (4 + 2) // 3 * 3 = 6") {
    o.pad_to_multiple_of = 3;
    Batch m = collate({a, c}, o);
    CHECK(m.T == 3);
    CHECK(m.L == 6);
    CHECK(show(m.labels, 2, 6) == "[[7,8,-100,-100,-100,-100],[9,10,11,12,-100,-100]]");
  }
  SUBCASE("left padding puts label pads on the left too") {
    o.padding_side = Side::Left;
    CHECK(show(collate({a, c}, o).labels, 2, 4) == "[[-100,-100,7,8],[9,10,11,12]]");
  }
  SUBCASE("padding max_length 5: both to 5") {
    o.padding = Padding::MaxLength;
    o.max_length = 5;
    Batch m = collate({a, c}, o);
    CHECK(m.T == 5);
    CHECK(m.L == 5);
    CHECK(show(m.labels, 2, 5) == "[[7,8,-100,-100,-100],[9,10,11,12,-100]]");
  }
  SUBCASE("padding max_length 3 with a 4-label row: the labels row is named, truncation fixes it") {
    o.padding = Padding::MaxLength;
    o.max_length = 3;
    InputError e = collate_error({a, c}, o);
    CHECK(e.field == "features[1].labels");
    CHECK(e.message.find("4 labels, more than max_length 3") != std::string::npos);
    o.truncation = true;  // labels are cut to max_length on the same side: [9,10,11]
    CHECK(show(collate({a, c}, o).labels, 2, 3) == "[[7,8,-100],[9,10,11]]");
  }
  SUBCASE("do_not_pad with labels of different lengths cannot form a tensor") {
    o.padding = Padding::DoNotPad;
    Feature d = ids({1, 2, 3});
    d.labels = std::vector<int>{5};
    CHECK(collate_error({a, d}, o).field == "features[1].labels");
  }
}

TEST_CASE("labels of their own length only under given, unpacked, without role masks") {
  Feature a = ids({1, 2, 3});
  a.labels = std::vector<int>{7, 8};
  CollateOptions o = pad0();
  CHECK(collate_error({a}, o).field == "features[0].labels");  // mask_padding: one label per token
  o.label_policy = LabelPolicy::Given;
  o.packing = Packing::Flatten;
  CHECK(collate_error({a}, o).field == "features[0].labels");
  o.packing = Packing::None;
  a.completion_mask = std::vector<int>{0, 1, 1};
  CHECK(collate_error({a}, o).field == "features[0].labels");
}

}  // TEST_SUITE
