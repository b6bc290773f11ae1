// test_api.cpp — run_command, the core's one entry point (api.cpp), as the CLI and the wasm
// module call it: JSON text in, JSON text out, never an exception.
//
// Error shape (brief): {"error":{"field":"…","message":"…"}} with ApiResult.field/message equal
// to the JSON's. Responses are read back with the core's own parser; expected values are worked
// out by hand from the request.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "api.hpp"
#include "json.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

// Asserts the error shape and returns the result for further checks.
ApiResult expect_error(std::string_view command, const std::string& request) {
  ApiResult r = run_command(command, request);
  CAPTURE(request);
  CHECK_FALSE(r.ok);
  Json j = parse_json(r.json);
  REQUIRE(j.is_object());
  CHECK(j.members().size() == 1u);
  const Json* e = j.find("error");
  REQUIRE(e != nullptr);
  REQUIRE(e->is_object());
  CHECK(e->members().size() == 2u);
  REQUIRE(e->find("field") != nullptr);
  REQUIRE(e->find("message") != nullptr);
  CHECK(e->find("field")->as_string() == r.field);
  CHECK(e->find("message")->as_string() == r.message);
  CHECK_FALSE(r.message.empty());
  return r;
}

Json expect_ok(std::string_view command, const std::string& request) {
  ApiResult r = run_command(command, request);
  CAPTURE(request);
  CAPTURE(r.json);
  REQUIRE(r.ok);
  CHECK(r.field.empty());
  return parse_json(r.json);
}

double number(const Json& j, const char* key) {
  const Json* v = j.find(key);
  REQUIRE(v != nullptr);
  REQUIRE(v->is_number());
  return v->as_number();
}

}  // namespace

TEST_SUITE("api") {

TEST_CASE("collate: the header's example as JSON") {
  // [[5,6,2],[7,2]], pad 0, right padding, mask_padding. Row 1: real 2, pads 1, labels 7,2 ->
  // label_tokens 2, targets 1 (label[1] = 2; label[0] never scored), pad_share 1/3.
  ApiResult r = run_command("collate", R"({"features": [{"input_ids": [5,6,2]}, {"input_ids": [7,2]}], "pad_token_id": 0})");
  REQUIRE(r.ok);
  CHECK(contains(r.json, "\"input_ids\":[[5,6,2],[7,2,0]]"));
  CHECK(contains(r.json, "\"attention_mask\":[[1,1,1],[1,1,0]]"));
  CHECK(contains(r.json, "\"labels\":[[5,6,2],[7,2,-100]]"));
  CHECK(contains(r.json, "\"position_ids\":[[0,1,2],[0,1,2]]"));
  CHECK(contains(r.json, "\"label_reasons\":[[\"\",\"\",\"\"],[\"\",\"\",\"padding\"]]"));
  CHECK(contains(r.json, "\"lengths\":[3,2]"));
  CHECK(contains(r.json, "\"seq_lengths\":null"));
  CHECK(contains(r.json, "\"shape\":[2,3]"));
  Json j = parse_json(r.json);
  const Json& row1 = j.find("rows")->items()[1];
  CHECK(number(row1, "real_tokens") == 2);
  CHECK(number(row1, "pads") == 1);
  CHECK(number(row1, "label_tokens") == 2);
  CHECK(number(row1, "targets") == 1);
  CHECK(number(row1, "pad_targets") == 0);
  CHECK(row1.find("eos_targets")->is_null());  // no eos_token_id given
  CHECK(number(*row1.find("ignored"), "padding") == 1);
  CHECK(number(row1, "pad_share") == doctest::Approx(1.0 / 3).epsilon(1e-15));
}

TEST_CASE("collate: flatten packing returns attention_mask null and seq_lengths") {
  Json j = expect_ok("collate", R"({"features": [{"input_ids": [5,6]}, {"input_ids": [7,8,9]}], "pad_token_id": 0,
                                    "packing": "flatten"})");
  CHECK(j.find("attention_mask")->is_null());
  CHECK(to_json(*j.find("seq_lengths")) == "[2,3]");
  CHECK(to_json(*j.find("position_ids")) == "[[0,1,0,1,2]]");
  CHECK(to_json(*j.find("label_reasons")) == "[[\"boundary\",\"\",\"boundary\",\"\",\"\"]]");
}

TEST_CASE("loss: a defined loss, and a null loss with its reason") {
  // V=2 zero logits, labels [-100, 1, 0]: 2 targets, each ln 2.
  Json j = expect_ok("loss", R"({"logits": [[[0,0],[0,0],[0,0]]], "labels": [[-100, 1, 0]]})");
  CHECK(number(j, "loss") == doctest::Approx(std::log(2.0)).epsilon(1e-12));
  CHECK(number(j, "num_targets") == 2);
  CHECK(j.find("loss_null_reason")->is_null());
  CHECK(to_json(*j.find("targets")) == "[[1,0,-100]]");

  Json empty = expect_ok("loss", R"({"logits": [[[0,0],[0,0]]], "labels": [[-100, -100]], "gradient": true})");
  CHECK(empty.find("loss")->is_null());
  CHECK(contains(empty.find("loss_null_reason")->as_string(), "NaN"));
  // F.cross_entropy's mean over zero targets: NaN loss, gradient exactly 0 (docs/semantics.md §7.3).
  CHECK(to_json(*empty.find("gradient")) == "[[[0,0],[0,0]]]");
  CHECK(number(empty, "gradient_norm") == 0);
  CHECK(empty.find("gradient_null_reason")->is_null());
  CHECK(to_json(*empty.find("rows_without_targets")) == "[0]");
}

TEST_CASE("loss: the hand-written masked mean over zero targets, from either per-token loss") {
  // B=1, T=3, V=2, all -100. cross_entropy: zero gradient; log_softmax_gather with the shift:
  // logits 0 and 1 are NaN (2 x 2 = 4 entries), logit 2 is outside the sliced loss.
  const char* request = R"({"logits": [[[0,0],[0,0],[0,0]]], "labels": [[-100,-100,-100]],
                            "reduction": "masked_mean", "gradient": true, "per_token_loss": "%s"})";
  auto with = [&](const std::string& source) {
    std::string r = request;
    r.replace(r.find("%s"), 2, source);
    return expect_ok("loss", r);
  };
  Json ce = with("cross_entropy");
  CHECK(ce.find("loss")->is_null());
  CHECK(contains(ce.find("loss_null_reason")->as_string(), "keep.sum()"));
  CHECK(to_json(*ce.find("gradient")) == "[[[0,0],[0,0],[0,0]]]");
  CHECK(number(ce, "gradient_nan_count") == 0);
  CHECK(number(ce, "gradient_max_abs") == 0);
  CHECK(number(ce, "gradient_norm") == 0);

  Json gather = with("log_softmax_gather");
  CHECK(gather.find("loss")->is_null());
  CHECK(gather.find("gradient")->is_null());
  CHECK(number(gather, "gradient_nan_count") == 4);
  CHECK(number(gather, "gradient_inf_count") == 0);
  CHECK(gather.find("gradient_max_abs")->is_null());
  CHECK(gather.find("gradient_norm")->is_null());
  CHECK(contains(gather.find("gradient_null_reason")->as_string(), "NaN"));

  CHECK(expect_error("loss", R"({"logits": [[[0,0]]], "labels": [[0]], "per_token_loss": "gather"})").field == "per_token_loss");
}

TEST_CASE("accumulate: mean of means against the global token mean") {
  // A: V=2, 2 targets of ln 2. B: V=4, 2 rows x 4 targets of ln 4. 1.5 ln 2 vs 1.8 ln 2.
  Json j = expect_ok("accumulate", R"({"micro_batches": [
      {"logits": [[[0,0],[0,0],[0,0]]], "labels": [[0,1,0]]},
      {"logits": [[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],
                  [[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]],
       "labels": [[0,1,2,3,0],[3,2,1,0,1]]}]})");
  const double ln2 = std::log(2.0);
  CHECK(number(j, "mean_of_means") == doctest::Approx(1.5 * ln2).epsilon(1e-12));
  CHECK(number(j, "global_token_mean") == doctest::Approx(1.8 * ln2).epsilon(1e-12));
  CHECK(number(j, "num_items_in_batch") == 10);
  CHECK(number(j, "num_items_unshifted") == 13);
  CHECK(j.find("null_reason")->is_null());
}

TEST_CASE("attention: a fully masked query comes back as zeros and is listed, never null") {
  // Left pad at t=0 under a causal mask: query 0 sees only key 0, which is masked.
  Json j = expect_ok("attention", R"({"q": [[[1],[2],[3]]], "k": [[[1],[1],[1]]], "v": [[[4],[5],[6]]],
                                     "attention_mask": [[0,1,1]], "causal": true})");
  CHECK(to_json(*j.find("fully_masked_queries")) == "[[0,0]]");
  CHECK(to_json(j.find("weights")->items()[0].items()[0]) == "[0,0,0]");
  CHECK_FALSE(contains(to_json(*j.find("weights")), "null"));
  CHECK_FALSE(contains(to_json(*j.find("output")), "null"));
  CHECK(to_json(*j.find("visible")) == "[[[0,0,0],[0,1,0],[0,1,1]]]");
  CHECK(j.find("fully_masked_rows")->as_string() == "zeros");
  CHECK(number(j, "scale") == 1);  // 1 / sqrt(D), D = 1
}

TEST_CASE("attention: fully_masked_rows nan writes the NaN rows as null, and scale is honoured") {
  // Same left pad. An eager softmax over -inf makes query 0's weights and output NaN: null here.
  // scale 2: scores q*k*2 = [2, 4, 6] for queries 0..2 against any key (k = 1).
  Json j = expect_ok("attention", R"({"q": [[[1],[2],[3]]], "k": [[[1],[1],[1]]], "v": [[[4],[5],[6]]],
                                     "attention_mask": [[0,1,1]], "fully_masked_rows": "nan", "scale": 2})");
  CHECK(to_json(*j.find("weights")) == "[[null,[0,1,0],[0,0.5,0.5]]]");
  CHECK(to_json(*j.find("output")) == "[[null,[5],[5.5]]]");
  CHECK(to_json(*j.find("scores")) == "[[[2,2,2],[4,4,4],[6,6,6]]]");
  CHECK(j.find("fully_masked_rows")->as_string() == "nan");
  CHECK(number(j, "scale") == 2);
  CHECK(expect_error("attention", R"({"q": [[[1]]], "k": [[[1]]], "v": [[[1]]], "fully_masked_rows": "NaN"})").field ==
        "fully_masked_rows");
}

TEST_CASE("inspect: gradient summary without the [B][T][V] values; fully_masked_rows reaches the attention") {
  // Every label -100 under label_policy given: masked_mean has no loss; from log_softmax_gather
  // with the shift, logits 0..T-2 of every row are NaN: B=1, T=3 -> 2 positions x V entries.
  // V = the ids the model knows: vocab {0, 1, 2} plus ids 5, 6 -> 5. So 2 x 5 = 10 NaN.
  Json j = expect_ok("inspect", R"({"features": [{"input_ids": [1, 5, 6], "labels": [-100, -100, -100]}],
                                   "pad_token_id": 0, "vocab": ["<pad>", "<bos>", "<eos>"], "label_policy": "given",
                                   "reduction": "masked_mean", "per_token_loss": "log_softmax_gather",
                                   "gradient": true, "padding_side": "left", "fully_masked_rows": "nan"})");
  const Json& loss = *j.find("loss");
  CHECK(number(j, "vocab_size") == 5);
  CHECK(loss.find("gradient") == nullptr);
  CHECK(number(loss, "gradient_nan_count") == 10);
  CHECK(loss.find("gradient_norm")->is_null());
  CHECK(j.find("attention")->find("fully_masked_rows")->as_string() == "nan");
}

TEST_CASE("inspect: text features come back with their token strings") {
  // Vocabulary: 0..4 specials, a=5, b=6, c=7. Row 1 [<bos>, c, <eos>] gets one <pad> on the right.
  Json j = expect_ok("inspect", R"({"text_features": ["a b", "c"]})");
  CHECK(to_json(*j.find("tokens")) ==
        R"([["<bos>","a","b","<eos>"],["<bos>","c","<eos>","<pad>"]])");
  CHECK(number(j, "vocab_size") == 8);
  CHECK(j.find("batch")->find("labels") != nullptr);
  CHECK(j.find("summary") != nullptr);
}

TEST_CASE("inspect: a vocab names ids; ids past its end are shown as #id") {
  // vocab covers ids 0..3; id 9 has no name. The tiny model's vocabulary is the named ids plus
  // the ids the batch uses: {0, 1, 2, 3} and {9} -> 5.
  Json j = expect_ok("inspect", R"({"features": [{"input_ids": [1, 3, 9]}], "pad_token_id": 0,
                                   "vocab": ["<pad>", "<bos>", "<eos>", "x"]})");
  CHECK(to_json(*j.find("tokens")) == R"([["<bos>","x","#9"]])");
  CHECK(number(j, "vocab_size") == 5);
}

TEST_CASE("inspect: a Llama-sized id costs a table of the batch's ids, not of the whole vocabulary") {
  // ids used: 5, 6, 128009 (eos = pad), so the model knows 3 ids; the answer must not be a
  // memory error. The targets are reported as the batch's own ids: logit 0 scores 6, logit 1
  // scores 128009 (mask_padding keeps the real EOS label).
  Json j = expect_ok("inspect", R"({"features": [{"input_ids": [5, 6, 128009]}], "pad_token_id": 128009,
                                   "eos_token_id": 128009})");
  CHECK(number(j, "vocab_size") == 3);
  CHECK(to_json(*j.find("loss")->find("targets")) == "[[6,128009,-100]]");
}

TEST_CASE("errors: the shape is {\"error\":{\"field\",\"message\"}} and the field is named") {
  SUBCASE("an unknown top-level field") {
    ApiResult r = expect_error("collate", R"({"features": [{"input_ids": [1]}], "pad_token_id": 0, "padding_sid": "left"})");
    CHECK(r.field == "padding_sid");
    CHECK(contains(r.message, "is not a field here"));
  }
  SUBCASE("ragged labels") {
    ApiResult r = expect_error("loss", R"({"logits": [[[0],[0],[0]], [[0],[0],[0]]], "labels": [[0,0,0],[0,0]]})");
    CHECK(contains(r.field + " " + r.message, "labels[1] has 2 entries but labels[0] has 3"));
  }
  SUBCASE("labels shifted already") {
    ApiResult r = expect_error("loss", R"({"logits": [[[0],[0],[0]]], "labels": [[0,0]]})");
    CHECK(r.field == "labels");
    CHECK(contains(r.message, "shifted"));
  }
  SUBCASE("a NaN logit written by Python's json.dumps") {
    ApiResult r = expect_error("loss", R"({"logits": [[[0, 0], [NaN, 0]]], "labels": [[0, 1]]})");
    CHECK(r.field == "logits[0][1][0]");
    CHECK(contains(r.message, "NaN"));
  }
  SUBCASE("a label outside the vocabulary") {
    ApiResult r = expect_error("loss", R"({"logits": [[[0, 0], [0, 0]]], "labels": [[0, 2]]})");
    CHECK(r.field == "labels[0][1]");
  }
  SUBCASE("a wrong type") {
    ApiResult r = expect_error("collate", R"({"features": [{"input_ids": [1]}], "pad_token_id": true})");
    CHECK(r.field == "pad_token_id");
    CHECK(r.message == "expected an integer, got true/false");
  }
  SUBCASE("an empty request") {
    ApiResult r = expect_error("collate", "");
    CHECK(r.field == "json");
    CHECK(contains(r.message, "empty"));
  }
  SUBCASE("garbage text") {
    ApiResult r = expect_error("loss", "hello, world");
    CHECK(r.field == "json");
    CHECK(contains(r.message, "line 1, column 1"));
  }
  SUBCASE("an unknown command") {
    ApiResult r = expect_error("train", "{}");
    CHECK(r.field == "command");
    CHECK(contains(r.message, "collate, loss, accumulate, attention, inspect, chat or doctor"));
  }
  SUBCASE("a collation error from the core") {
    ApiResult r = expect_error("collate", R"({"features": [{"input_ids": [1,2]}, {"input_ids": [1,2,3,4]}],
                                              "pad_token_id": 0, "padding": "max_length", "max_length": 3})");
    CHECK(r.field == "features[1].input_ids");
  }
  SUBCASE("an inspect toggle outside the batch") {
    ApiResult r = expect_error("inspect", R"({"text_features": ["a"], "toggle_labels": [[0, 9]]})");
    CHECK(r.field == "toggle_labels[0]");
    CHECK(contains(r.message, "outside the batch"));
  }
  SUBCASE("an attention-mask toggle on a flatten-packed batch, which has no mask") {
    ApiResult r = expect_error("inspect", R"({"text_features": ["a", "b"], "packing": "flatten",
                                              "toggle_attention_mask": [[0, 0]]})");
    CHECK(r.field == "toggle_attention_mask");
  }
}

TEST_CASE("errors: a field name with quotes and markup is escaped in the JSON, not injected") {
  ApiResult r = expect_error("loss", R"({"logits": [[[0]]], "labels": [[0]], "a\"b<img>": 1})");
  CHECK(r.field == "a\"b<img>");
}

TEST_CASE("errors: an overflowing padded length is a named input error, not an internal error") {
  // Regression test (was a core bug): round_up (padding.cpp:29) overflows int for max_length 2^31-1
  // rounded to a multiple of 4; collate then throws std::length_error, reported as field "" and
  // "internal error: cannot create std::vector larger than max_size()".
  ApiResult r = expect_error("collate", R"({"features": [{"input_ids": [1,2]}], "pad_token_id": 0,
                                            "padding": "max_length", "max_length": 2147483647, "pad_to_multiple_of": 4})");
  CHECK_FALSE(r.field.empty());
  CHECK_FALSE(contains(r.message, "internal error"));
}

TEST_CASE("run_command never throws, and every failure names a field") {
  const std::vector<std::string> requests = {
      "", "null", "[]", "{}", "3", "\"x\"", "{", "}", "[1,", "{\"a\":}", std::string(100000, '['),
      std::string(100000, '{'), "\"\\ud800\"", "NaN", "-Infinity",
      R"({"features": null, "pad_token_id": 0})",
      R"({"features": [[1]], "pad_token_id": 0})",
      R"({"features": [{"input_ids": []}], "pad_token_id": 0})",
      R"({"features": [{"input_ids": [2147483648]}], "pad_token_id": 0})",
      R"({"features": [{"input_ids": [1]}], "pad_token_id": -1})",
      R"({"features": [{"input_ids": [1]}], "pad_token_id": 0, "vocab_size": 0})",
      R"({"features": [{"input_ids": [1]}], "pad_token_id": 0, "max_length": -5, "truncation": true})",
      R"({"features": [{"input_ids": [1]}], "pad_token_id": 0, "padding": "max_length", "max_length": 2000000})",
      R"({"logits": [[[1e400]]], "labels": [[0]]})",
      R"({"logits": [[[0]]], "labels": [[5]], "shift": false})",
      R"({"logits": [[[0]]], "labels": [[0]], "reduction": "sum_over_num_items"})",
      R"({"logits": [[[0]]], "labels": [[0]], "reduction": "none", "gradient": true})",
      R"({"micro_batches": []})",
      R"({"micro_batches": [{"logits": [[[0]]], "labels": [[0]]}], "shift": 1})",
      R"({"q": [[[1]]], "k": [[[1]]], "v": [[[1]]], "attention_mask": [[0]]})",
      R"({"q": [[[1]]], "k": [[[1]]], "v": [[[Infinity]]]})",
      R"({"text_features": ["<eos><eos>"], "toggle_labels": [[5, 5]]})",
      R"({"text_features": [""], "add_bos": false, "add_eos": false})",
      R"({"text_features": ["a"], "features": [{"input_ids": [1]}]})",
  };
  for (const char* command : {"collate", "loss", "accumulate", "attention", "inspect", ""}) {
    for (const auto& request : requests) {
      CAPTURE(command);
      CAPTURE(request.substr(0, 80));
      ApiResult r;
      CHECK_NOTHROW(r = run_command(command, request));
      CHECK_NOTHROW(parse_json(r.json));
      if (!r.ok) {
        CHECK_FALSE(r.message.empty());
        CHECK_FALSE(contains(r.message, "internal error"));
      }
    }
  }
}

}  // TEST_SUITE

TEST_CASE("collate: is_pad marks padding by position, also when a real token has the pad id") {
  // pad == eos == 2; row 1 is [7, 2] padded on the left to length 3: position 0 is the pad, the
  // real EOS at position 2 has the pad id but is not padding.
  Json j = expect_ok("collate", R"({"features": [{"input_ids": [5, 6, 2]}, {"input_ids": [7, 2]}],
                                   "pad_token_id": 2, "padding_side": "left"})");
  CHECK(to_json(*j.find("is_pad")) == "[[0,0,0],[1,0,0]]");
}
