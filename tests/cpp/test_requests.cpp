// test_requests.cpp — JSON requests decoded into core inputs (requests.cpp, json_fields.cpp).
//
// The promise under test: every decoding error names the field in the request's own spelling
// ("features[1].input_ids[3]", "labels[1]", "micro_batches[0].logits") and says what was
// expected. Field names follow Hugging Face / PyTorch (brief, "Request/response shapes").
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "input_error.hpp"
#include "json.hpp"
#include "requests.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

using Decoder = std::function<void(const Json&)>;

const Decoder kCollate = [](const Json& j) { decode_collate(j); };
const Decoder kLoss = [](const Json& j) { decode_loss(j); };
const Decoder kAccumulate = [](const Json& j) { decode_accumulate(j); };
const Decoder kAttention = [](const Json& j) { decode_attention(j); };
const Decoder kInspect = [](const Json& j) { decode_inspect(j); };

InputError decode_error(const Decoder& decode, const std::string& text) {
  return input_error([&] { decode(parse_json(text)); }, "decoded a request it should have rejected: " + text);
}

// "field message", the way the site and the CLI print an error.
std::string said(const InputError& e) { return e.field + " " + e.message; }

}  // namespace

TEST_SUITE("requests") {

TEST_CASE("collate: every option is read by its Hugging Face name") {
  CollateRequest r = decode_collate(parse_json(R"({
    "features": [{"input_ids": [5, 6, 2], "labels": [-100, 6, 2], "attention_mask": [1, 1, 1]},
                 {"input_ids": [7], "completion_mask": [1], "assistant_masks": [1]}],
    "pad_token_id": 2, "eos_token_id": 2, "vocab_size": 10,
    "padding": "max_length", "max_length": 6, "pad_to_multiple_of": 4,
    "padding_side": "left", "truncation": true, "truncation_side": "left",
    "attention_mask_policy": "input_ids_ne_pad", "label_policy": "mask_pad_id",
    "label_pad_token_id": 0, "packing": "concat_unsafe", "position_ids": "from_mask", "shift": false})"));
  REQUIRE(r.features.size() == 2u);
  CHECK(r.features[0].input_ids == std::vector<int>{5, 6, 2});
  CHECK(*r.features[0].labels == std::vector<int>{-100, 6, 2});
  CHECK(*r.features[1].completion_mask == std::vector<int>{1});
  CHECK(*r.features[1].assistant_masks == std::vector<int>{1});
  const CollateOptions& o = r.options;
  CHECK(o.pad_token_id == 2);
  CHECK(*o.eos_token_id == 2);
  CHECK(*o.vocab_size == 10);
  CHECK(o.padding == Padding::MaxLength);
  CHECK(*o.max_length == 6);
  CHECK(*o.pad_to_multiple_of == 4);
  CHECK(o.padding_side == Side::Left);
  CHECK(o.truncation);
  CHECK(o.truncation_side == Side::Left);
  CHECK(o.attention_mask_policy == AttentionMaskPolicy::InputIdsNePad);
  CHECK(o.label_policy == LabelPolicy::MaskPadId);
  CHECK(o.label_pad_token_id == 0);
  CHECK(o.packing == Packing::ConcatUnsafe);
  CHECK(o.position_ids == PositionPolicy::FromMask);
  CHECK_FALSE(o.shift);
}

TEST_CASE("collate: defaults when only features and pad_token_id are given; null means absent") {
  CollateRequest r = decode_collate(parse_json(R"({"features": [{"input_ids": [1]}], "pad_token_id": 0,
                                                   "max_length": null, "eos_token_id": null})"));
  const CollateOptions& o = r.options;
  CHECK(o.padding == Padding::Longest);
  CHECK(o.padding_side == Side::Right);
  CHECK(o.attention_mask_policy == AttentionMaskPolicy::FromLengths);
  CHECK(o.label_policy == LabelPolicy::MaskPadding);
  CHECK(o.label_pad_token_id == -100);
  CHECK(o.packing == Packing::None);
  CHECK(o.position_ids == PositionPolicy::Arange);
  CHECK(o.shift);
  CHECK_FALSE(o.max_length.has_value());
  CHECK_FALSE(o.eos_token_id.has_value());
}

TEST_CASE("collate: an unknown top-level field is named, with the list of valid ones") {
  InputError e = decode_error(kCollate, R"({"features": [{"input_ids": [1]}], "pad_token_id": 0, "paddingside": "left"})");
  CHECK(e.field == "paddingside");
  CHECK(contains(e.message, "is not a field here"));
  CHECK(contains(e.message, "padding_side"));
}

TEST_CASE("collate: missing and mistyped fields name the field") {
  SUBCASE("pad_token_id may be missing: decoding leaves it absent (collate asks only where it pads)") {
    CollateRequest r = decode_collate(parse_json(R"({"features": [{"input_ids": [1]}]})"));
    CHECK_FALSE(r.options.pad_token_id.has_value());
  }
  SUBCASE("pad_token_id as a string") {
    InputError e = decode_error(kCollate, R"({"features": [{"input_ids": [1]}], "pad_token_id": "0"})");
    CHECK(said(e) == "pad_token_id expected an integer, got a string");
  }
  SUBCASE("pad_token_id out of the 32-bit range") {
    CHECK(decode_error(kCollate, R"({"features": [{"input_ids": [1]}], "pad_token_id": 3e9})").field == "pad_token_id");
  }
  SUBCASE("features missing") {
    CHECK(decode_error(kCollate, R"({"pad_token_id": 0})").field == "features");
  }
  SUBCASE("features not an array") {
    InputError e = decode_error(kCollate, R"({"features": {"input_ids": [1]}, "pad_token_id": 0})");
    CHECK(said(e) == "features expected an array, got an object");
  }
  SUBCASE("a feature that is not an object") {
    CHECK(decode_error(kCollate, R"({"features": [{"input_ids": [1]}, [1, 2]], "pad_token_id": 0})").field ==
          "features[1]");
  }
  SUBCASE("a feature without input_ids") {
    InputError e = decode_error(kCollate, R"({"features": [{"input_ids": [1]}, {"labels": [1]}], "pad_token_id": 0})");
    CHECK(said(e) == "features[1].input_ids is missing");
  }
  SUBCASE("a token id that is not an integer") {
    InputError e = decode_error(kCollate, R"({"features": [{"input_ids": [1, 1.5]}], "pad_token_id": 0})");
    CHECK(said(e) == "features[0].input_ids[1] expected an integer, got 1.5");
  }
  SUBCASE("labels given as a string") {
    InputError e = decode_error(kCollate, R"({"features": [{"input_ids": [1], "labels": "1"}], "pad_token_id": 0})");
    CHECK(e.field == "features[0].labels");
    CHECK(contains(e.message, "got a string"));
  }
  SUBCASE("an unknown choice lists the valid ones") {
    InputError e = decode_error(kCollate, R"({"features": [{"input_ids": [1]}], "pad_token_id": 0, "padding": "longestt"})");
    CHECK(e.field == "padding");
    CHECK(contains(e.message, "\"longest\", \"max_length\", \"do_not_pad\""));
  }
  SUBCASE("a bool given as a string") {
    InputError e = decode_error(kCollate, R"({"features": [{"input_ids": [1]}], "pad_token_id": 0, "truncation": "yes"})");
    CHECK(said(e) == "truncation expected true or false, got a string");
  }
  SUBCASE("the request is not an object") {
    CHECK(decode_error(kCollate, "[1, 2]").field == "request");
  }
}

TEST_CASE("loss: logits, labels and options decode with their shapes") {
  LossInput in = decode_loss(parse_json(R"({"logits": [[[0, 1], [2, 3], [4, 5]]], "labels": [[-100, 1, 0]],
      "shift": false, "ignore_index": -1, "reduction": "sum_over_num_items", "num_items_in_batch": 2,
      "gradient": true})"));
  CHECK(in.B == 1);
  CHECK(in.T == 3);
  CHECK(in.V == 2);
  CHECK(in.logits == std::vector<double>{0, 1, 2, 3, 4, 5});
  CHECK(in.labels == std::vector<int>{-100, 1, 0});
  CHECK_FALSE(in.shift);
  CHECK(in.ignore_index == -1);
  CHECK(in.reduction == Reduction::SumOverNumItems);
  CHECK(*in.num_items_in_batch == 2.0);
  CHECK(in.gradient);
}

TEST_CASE("loss: ragged labels name the row and the row they differ from") {
  InputError e = decode_error(kLoss, R"({"logits": [[[0,0],[0,0],[0,0]], [[0,0],[0,0],[0,0]]],
                                         "labels": [[-100, 1, 1], [1, 1]]})");
  CHECK(e.field == "labels[1]");
  CHECK(contains(said(e), "labels[1] has 2 entries but labels[0] has 3"));
}

TEST_CASE("loss: ragged logits name the row and the row they differ from") {
  InputError e = decode_error(kLoss, R"({"logits": [[[0,0],[0,0]], [[0,0]]], "labels": [[1,1],[1,1]]})");
  CHECK(e.field == "logits[1]");
  CHECK(contains(e.message, "but logits[0] has 2"));
}

TEST_CASE("loss: a ragged vocabulary row at index 0 of a later example names a different row") {
  // Regression test (was a core bug): json_fields.cpp:94 builds the sibling to compare with from the
  // field's own parent, so for logits[1][0] it names logits[1][0] itself: "logits[1][0] has 1
  // entries but logits[1][0] has 2". The width 2 was set by logits[0][0].
  InputError e = decode_error(kLoss, R"({"logits": [[[0,0],[0,0]], [[0],[0,0]]], "labels": [[1,1],[1,1]]})");
  CHECK(e.field == "logits[1][0]");
  CHECK_FALSE(contains(e.message, "but logits[1][0] has"));
  CHECK(contains(e.message, "logits[0][0] has 2"));
}

TEST_CASE("loss: labels one position short get the 'shifted already?' hint") {
  InputError e = decode_error(kLoss, R"({"logits": [[[0,0],[0,0],[0,0]]], "labels": [[1, 1]]})");
  CHECK(e.field == "labels");
  CHECK(contains(e.message, "has 2 positions per row but logits has 3"));
  CHECK(contains(e.message, "shifted"));
}

TEST_CASE("loss: other shape and type errors name the field") {
  SUBCASE("row counts differ") {
    InputError e = decode_error(kLoss, R"({"logits": [[[0,0]], [[0,0]]], "labels": [[1]]})");
    CHECK(said(e) == "labels has 1 rows but logits has 2");
  }
  SUBCASE("logits missing") { CHECK(decode_error(kLoss, R"({"labels": [[1]]})").field == "logits"); }
  SUBCASE("labels missing") { CHECK(decode_error(kLoss, R"({"logits": [[[0]]]})").field == "labels"); }
  SUBCASE("logits with too little nesting") {
    InputError e = decode_error(kLoss, R"({"logits": [[0, 0]], "labels": [[1]]})");
    CHECK(e.field == "logits[0][0]");
    CHECK(contains(e.message, "expected an array"));
  }
  SUBCASE("logits not an array at all") {
    InputError e = decode_error(kLoss, R"({"logits": 3, "labels": [[1]]})");
    CHECK(e.field == "logits");
    CHECK(contains(e.message, "3 levels of nesting"));
  }
  SUBCASE("a logit given as a string") {
    InputError e = decode_error(kLoss, R"({"logits": [[[0, "a"]]], "labels": [[1]]})");
    CHECK(said(e) == "logits[0][0][1] expected a number, got a string");
  }
  SUBCASE("an empty logits array") {
    CHECK(said(decode_error(kLoss, R"({"logits": [], "labels": []})")) == "logits is empty");
  }
  SUBCASE("an unknown reduction") {
    InputError e = decode_error(kLoss, R"({"logits": [[[0]]], "labels": [[0]], "reduction": "avg"})");
    CHECK(e.field == "reduction");
    CHECK(contains(e.message, "\"per_example_mean\""));
  }
  SUBCASE("a label that is not an integer") {
    CHECK(decode_error(kLoss, R"({"logits": [[[0],[0]]], "labels": [[0, 0.5]]})").field == "labels[0][1]");
  }
  SUBCASE("gradient as a number") {
    CHECK(said(decode_error(kLoss, R"({"logits": [[[0]]], "labels": [[0]], "gradient": 1})")) ==
          "gradient expected true or false, got a number");
  }
  SUBCASE("an unknown field") {
    CHECK(decode_error(kLoss, R"({"logits": [[[0]]], "labels": [[0]], "ignore_idx": -100})").field == "ignore_idx");
  }
}

TEST_CASE("loss: NaN and Infinity literals decode, so the loss can name the logit") {
  LossInput in = decode_loss(parse_json(R"({"logits": [[[NaN, Infinity]]], "labels": [[0]]})"));
  CHECK(std::isnan(in.logits[0]));
  CHECK(std::isinf(in.logits[1]));
}

TEST_CASE("accumulate: micro-batches decode with the top-level shift and ignore_index") {
  std::vector<LossInput> mbs = decode_accumulate(parse_json(R"({"micro_batches": [
      {"logits": [[[0,0],[0,0]]], "labels": [[0, 1]]},
      {"logits": [[[0,0,0]]], "labels": [[2]]}], "shift": false, "ignore_index": -1})"));
  REQUIRE(mbs.size() == 2u);
  CHECK(mbs[0].T == 2);
  CHECK(mbs[1].V == 3);
  CHECK_FALSE(mbs[0].shift);
  CHECK_FALSE(mbs[1].shift);
  CHECK(mbs[1].ignore_index == -1);
}

TEST_CASE("accumulate: errors name the micro-batch") {
  SUBCASE("micro_batches missing") { CHECK(decode_error(kAccumulate, "{}").field == "micro_batches"); }
  SUBCASE("a field a micro-batch does not have") {
    InputError e = decode_error(kAccumulate, R"({"micro_batches": [{"logits": [[[0]]], "labels": [[0]]},
                                                {"logits": [[[0]]], "labels": [[0]], "reduction": "sum"}]})");
    CHECK(e.field == "micro_batches[1].reduction");
  }
  SUBCASE("labels missing in micro-batch 1") {
    InputError e = decode_error(kAccumulate, R"({"micro_batches": [{"logits": [[[0]]], "labels": [[0]]},
                                                {"logits": [[[0]]]}]})");
    CHECK(e.field == "micro_batches[1].labels");
  }
  SUBCASE("ragged labels in micro-batch 0") {
    InputError e = decode_error(kAccumulate, R"({"micro_batches": [{"logits": [[[0],[0]],[[0],[0]]], "labels": [[0,0],[0]]}]})");
    CHECK(e.field == "micro_batches[0].labels[1]");
    CHECK(contains(e.message, "but micro_batches[0].labels[0] has 2"));
  }
}

TEST_CASE("attention: q, k, v, attention_mask and causal decode with shapes checked") {
  AttentionInput in = decode_attention(parse_json(R"({"q": [[[1],[2]]], "k": [[[3],[4]]], "v": [[[5],[6]]],
                                                      "attention_mask": [[0, 1]], "causal": false})"));
  CHECK(in.B == 1);
  CHECK(in.T == 2);
  CHECK(in.D == 1);
  CHECK(in.k == std::vector<double>{3, 4});
  CHECK(in.attention_mask == std::vector<int>{0, 1});
  CHECK_FALSE(in.causal);
}

TEST_CASE("attention: errors name the tensor and the cell") {
  SUBCASE("k shaped differently from q") {
    InputError e = decode_error(kAttention, R"({"q": [[[1],[2],[3]]], "k": [[[1],[2]]], "v": [[[1],[2],[3]]]})");
    CHECK(said(e) == "k has shape [1][2][1] but q has [1][3][1]");
  }
  SUBCASE("v missing") { CHECK(decode_error(kAttention, R"({"q": [[[1]]], "k": [[[1]]]})").field == "v"); }
  SUBCASE("a mask value that is not 0 or 1") {
    InputError e = decode_error(kAttention, R"({"q": [[[1],[2],[3]]], "k": [[[1],[2],[3]]], "v": [[[1],[2],[3]]],
                                               "attention_mask": [[1, 2, 1]]})");
    CHECK(said(e) == "attention_mask[0][1] is 2; expected 0 or 1");
  }
  SUBCASE("a mask of the wrong shape") {
    InputError e = decode_error(kAttention, R"({"q": [[[1],[2]]], "k": [[[1],[2]]], "v": [[[1],[2]]],
                                               "attention_mask": [[1, 1, 1]]})");
    CHECK(e.field == "attention_mask");
  }
}

TEST_CASE("inspect: text_features are tokenised with <bos> and <eos> and one shared vocabulary") {
  // Specials 0..4, then new words in order: "a"=5, "b"=6, "c"=7. bos=1, eos=2; pad defaults to 0.
  InspectInput in = decode_inspect(parse_json(R"({"text_features": ["a b", "b c"]})"));
  REQUIRE(in.features.size() == 2u);
  CHECK(in.features[0].input_ids == std::vector<int>{1, 5, 6, 2});
  CHECK(in.features[1].input_ids == std::vector<int>{1, 6, 7, 2});
  CHECK(in.options.pad_token_id == 0);
  CHECK(*in.options.eos_token_id == 2);
  CHECK(in.vocab.size() == 8u);
  CHECK(in.vocab[7] == "c");
  CHECK_FALSE(in.features[0].completion_mask.has_value());
}

TEST_CASE("inspect: a prompt/completion pair gets a completion_mask covering the completion and <eos>") {
  // <bos> Hi | Bob <eos> -> ids [1,5,6,2], completion_mask [0,0,1,1] (TRL: [0]*len(prompt) + [1]*rest).
  InspectInput in = decode_inspect(parse_json(R"({"text_features": [{"prompt": "Hi", "completion": "Bob"}],
                                                  "add_bos": true, "add_eos": true, "causal": false})"));
  CHECK(in.features[0].input_ids == std::vector<int>{1, 5, 6, 2});
  CHECK(*in.features[0].completion_mask == std::vector<int>{0, 0, 1, 1});
  CHECK_FALSE(in.causal);
}

TEST_CASE("inspect: a vocab names the ids of a hand-built batch") {
  InspectInput in = decode_inspect(parse_json(R"({"features": [{"input_ids": [1, 3, 2]}], "pad_token_id": 0,
                                                  "vocab": ["<pad>", "<bos>", "<eos>", "paris"]})"));
  CHECK(in.vocab == std::vector<std::string>{"<pad>", "<bos>", "<eos>", "paris"});
  CHECK(in.features[0].input_ids == std::vector<int>{1, 3, 2});
}

TEST_CASE("inspect: errors name the field") {
  SUBCASE("text_features and features together") {
    CHECK(decode_error(kInspect, R"({"text_features": ["a"], "features": [{"input_ids": [1]}], "pad_token_id": 0})")
              .field == "text_features");
  }
  SUBCASE("an empty text_features") { CHECK(decode_error(kInspect, R"({"text_features": []})").field == "text_features"); }
  SUBCASE("a pair without completion") {
    CHECK(decode_error(kInspect, R"({"text_features": [{"prompt": "a"}]})").field == "text_features[0].completion");
  }
  SUBCASE("a misspelt key in a pair") {
    CHECK(decode_error(kInspect, R"({"text_features": ["a", {"promt": "a", "completion": "b"}]})").field ==
          "text_features[1].promt");
  }
  SUBCASE("a prompt that is not a string") {
    InputError e = decode_error(kInspect, R"({"text_features": [{"prompt": 3, "completion": "b"}]})");
    CHECK(said(e) == "text_features[0].prompt expected a string, got a number");
  }
  SUBCASE("ids without pad_token_id decode; the pad id stays absent") {
    CHECK_FALSE(decode_inspect(parse_json(R"({"features": [{"input_ids": [1]}]})")).options.pad_token_id.has_value());
  }
  SUBCASE("a toggle that is not a [row, position] pair") {
    CHECK(decode_error(kInspect, R"({"text_features": ["a"], "toggle_labels": [[0]]})").field == "toggle_labels");
  }
  SUBCASE("a vocab next to text_features, which bring their own") {
    CHECK(decode_error(kInspect, R"({"text_features": ["a"], "vocab": ["<pad>"]})").field == "vocab");
  }
  SUBCASE("a vocab that is not an array") {
    CHECK(decode_error(kInspect, R"({"features": [{"input_ids": [1]}], "pad_token_id": 0, "vocab": "abc"})").field ==
          "vocab");
  }
  SUBCASE("a vocab entry that is not a string") {
    InputError e = decode_error(kInspect, R"({"features": [{"input_ids": [1]}], "pad_token_id": 0, "vocab": ["a", 2]})");
    CHECK(said(e) == "vocab[1] expected a string, got a number");
  }
  SUBCASE("text that yields no tokens") {
    CHECK(decode_error(kInspect, R"({"text_features": ["  "], "add_bos": false, "add_eos": false})").field ==
          "text_features[0]");
  }
}

}  // TEST_SUITE
