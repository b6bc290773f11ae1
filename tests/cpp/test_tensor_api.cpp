// test_tensor_api.cpp — the typed-array path (tensor_api.hpp): the same decoders and maths as
// run_command, with the big tensors as flat buffers. Each answer is checked against the JSON
// path's answer to the same request (the JSON path's values are pinned by test_loss/test_collate),
// and errors name the same fields.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "api.hpp"
#include "json.hpp"
#include "tensor_api.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

TensorIn f64(std::string name, const std::vector<double>& v, std::vector<int> shape) {
  return TensorIn{std::move(name), DType::Float64, std::move(shape), v.data(), v.size()};
}
TensorIn f32(std::string name, const std::vector<float>& v, std::vector<int> shape) {
  return TensorIn{std::move(name), DType::Float32, std::move(shape), v.data(), v.size()};
}
TensorIn i32(std::string name, const std::vector<std::int32_t>& v, std::vector<int> shape) {
  return TensorIn{std::move(name), DType::Int32, std::move(shape), v.data(), v.size()};
}

const TensorOut& tensor(const TensorAnswer& a, const std::string& name) {
  for (const TensorOut& t : a.tensors)
    if (t.name == name) return t;
  FAIL("no tensor " << name);
  return a.tensors.front();
}

// The JSON path's answer to the same request, as a parsed value.
Json json_answer(const char* command, const std::string& request) {
  ApiResult r = run_command(command, request);
  REQUIRE(r.ok);
  return parse_json(r.json);
}

std::vector<double> numbers(const Json& rows) {
  std::vector<double> out;
  for (const Json& row : rows.items())
    for (const Json& x : row.is_array() ? row.items() : Json::Items{row})
      if (x.is_array())
        for (const Json& y : x.items()) out.push_back(y.as_number());
      else
        out.push_back(x.as_number());
  return out;
}

}  // namespace

TEST_SUITE("tensor_api") {

TEST_CASE("loss: the typed path gives the JSON path's loss, per-token losses, targets and gradient") {
  // B=1, T=3, V=2: logits [0,0] [2,0] [0,0], labels [-100, 0, 1] (README example, plus the gradient).
  const std::vector<double> logits = {0, 0, 2, 0, 0, 0};
  const std::vector<std::int32_t> labels = {-100, 0, 1};
  TensorAnswer typed = run_tensor_command("loss", R"({"reduction": "sum", "gradient": true})",
                                          {f64("logits", logits, {1, 3, 2}), i32("labels", labels, {1, 3})});
  REQUIRE(typed.answer.ok);
  Json answer = parse_json(typed.answer.json);
  Json reference = json_answer("loss", R"({"logits": [[[0, 0], [2, 0], [0, 0]]], "labels": [[-100, 0, 1]],
                                          "reduction": "sum", "gradient": true})");
  CHECK(answer.find("loss")->as_number() == reference.find("loss")->as_number());
  CHECK(answer.find("sum")->as_number() == reference.find("sum")->as_number());
  // Tensor fields leave the JSON; the rest is the JSON path's.
  CHECK(answer.find("per_token") == nullptr);
  CHECK(answer.find("targets") == nullptr);
  CHECK(answer.find("gradient") == nullptr);
  CHECK(to_json(*answer.find("per_example_targets")) == to_json(*reference.find("per_example_targets")));
  const TensorOut& per_token = tensor(typed, "per_token");
  CHECK(per_token.dtype == DType::Float64);
  CHECK(per_token.shape == std::vector<int>{1, 3});
  CHECK(per_token.f64 == numbers(*reference.find("per_token")));
  CHECK(tensor(typed, "targets").i32 == std::vector<std::int32_t>{0, 1, -100});
  const TensorOut& gradient = tensor(typed, "gradient");
  CHECK(gradient.shape == std::vector<int>{1, 3, 2});
  CHECK(gradient.f64 == numbers(*reference.find("gradient")));
}

TEST_CASE("loss: float32 logits give a float32 gradient, rounded from the same double maths") {
  // logits [0, 0] scored against label 1 (no shift): softmax [0.5, 0.5], gradient [0.5, -0.5].
  const std::vector<float> logits = {0, 0};
  const std::vector<std::int32_t> labels = {1};
  TensorAnswer typed = run_tensor_command("loss", R"({"shift": false, "gradient": true})",
                                          {f32("logits", logits, {1, 1, 2}), i32("labels", labels, {1, 1})});
  REQUIRE(typed.answer.ok);
  CHECK(parse_json(typed.answer.json).find("loss")->as_number() == doctest::Approx(std::log(2.0)).epsilon(1e-15));
  const TensorOut& g = tensor(typed, "gradient");
  CHECK(g.dtype == DType::Float32);
  CHECK(g.f32 == std::vector<float>{0.5f, -0.5f});
}

TEST_CASE("loss: without targets the gradient is exact zeros, as autograd gives; a NaN gradient is null with its reason") {
  // Mean over zero targets: no loss (0/0), but F.cross_entropy's backward writes nothing at an
  // ignored target, so d loss / d logits is exactly [0, 0] (docs/semantics.md §7.3).
  const std::vector<double> logits = {0, 0};
  const std::vector<std::int32_t> labels = {-100};
  TensorAnswer typed = run_tensor_command("loss", R"({"gradient": true, "shift": false})",
                                          {f64("logits", logits, {1, 1, 2}), i32("labels", labels, {1, 1})});
  REQUIRE(typed.answer.ok);
  Json answer = parse_json(typed.answer.json);
  CHECK(answer.find("loss")->is_null());
  CHECK(contains(answer.find("loss_null_reason")->as_string(), "no targets"));
  CHECK(answer.find("gradient") == nullptr);  // it is a tensor
  CHECK(tensor(typed, "gradient").f64 == std::vector<double>{0, 0});

  // The hand-written masked mean over log_softmax(...).gather: 1/0 * keep = inf * 0 = NaN reaches
  // both logits, so there is no gradient tensor and the JSON says why.
  TensorAnswer nan = run_tensor_command(
      "loss", R"({"gradient": true, "shift": false, "reduction": "masked_mean", "per_token_loss": "log_softmax_gather"})",
      {f64("logits", logits, {1, 1, 2}), i32("labels", labels, {1, 1})});
  REQUIRE(nan.answer.ok);
  Json nan_answer = parse_json(nan.answer.json);
  REQUIRE(nan_answer.find("gradient") != nullptr);
  CHECK(nan_answer.find("gradient")->is_null());
  CHECK(nan_answer.find("gradient_nan_count")->as_number() == 2);
  CHECK(contains(nan_answer.find("gradient_null_reason")->as_string(), "NaN"));
  for (const TensorOut& t : nan.tensors) CHECK(t.name != "gradient");
}

TEST_CASE("loss: logits read in place (float64) or widened a row at a time (float32) give the JSON path's bits") {
  // The typed path lends the caller's buffer to the loss instead of copying it. Every option set
  // below (the gather loss reaches ignored rows too) must give the JSON path's per-token losses
  // and gradient bit for bit, and leave the caller's buffer as it was.
  const int B = 2, T = 4, V = 9;
  std::vector<double> logits(B * T * V);
  for (size_t i = 0; i < logits.size(); ++i) logits[i] = static_cast<float>(std::sin(0.7 * i) * 3 - 0.01 * i);
  const std::vector<float> narrow(logits.begin(), logits.end());  // exact: the values are floats
  const std::vector<std::int32_t> labels = {-100, 2, 8, 0, 5, -100, 1, -100};
  std::string nested = "[";
  for (int b = 0; b < B; ++b) {
    nested += b ? ",[" : "[";
    for (int t = 0; t < T; ++t) {
      nested += t ? ",[" : "[";
      for (int v = 0; v < V; ++v) nested += (v ? "," : "") + format_number(logits[(b * T + t) * V + v]);
      nested += "]";
    }
    nested += "]";
  }
  nested += "]";
  for (const char* options : {R"("reduction": "sum", "gradient": true)", R"("reduction": "mean", "gradient": true)",
                              R"("reduction": "masked_mean", "per_token_loss": "log_softmax_gather", "gradient": true)",
                              R"("reduction": "none", "shift": false)"}) {
    CAPTURE(options);
    const Json reference = json_answer(
        "loss", "{\"logits\": " + nested + ", \"labels\": [[-100, 2, 8, 0], [5, -100, 1, -100]], " + options + "}");
    const std::vector<double> before = logits;
    TensorAnswer wide = run_tensor_command("loss", std::string("{") + options + "}",
                                           {f64("logits", logits, {B, T, V}), i32("labels", labels, {B, T})});
    TensorAnswer thin = run_tensor_command("loss", std::string("{") + options + "}",
                                           {f32("logits", narrow, {B, T, V}), i32("labels", labels, {B, T})});
    REQUIRE(wide.answer.ok);
    REQUIRE(thin.answer.ok);
    CHECK(logits == before);
    const std::vector<double> per_token = numbers(*reference.find("per_token"));
    CHECK(tensor(wide, "per_token").f64 == per_token);
    CHECK(tensor(thin, "per_token").f64 == per_token);
    CHECK(parse_json(wide.answer.json).find("sum")->as_number() == reference.find("sum")->as_number());
    CHECK(parse_json(thin.answer.json).find("sum")->as_number() == reference.find("sum")->as_number());
    if (const Json* g = reference.find("gradient")) {
      const std::vector<double> gradient = numbers(*g);
      CHECK(tensor(wide, "gradient").f64 == gradient);
      CHECK(tensor(thin, "gradient").f32 == std::vector<float>(gradient.begin(), gradient.end()));
    }
  }
}

TEST_CASE("loss: bad tensors and options are refused with the field named, as on the JSON path") {
  const std::vector<double> logits = {0, 0, 0, 0};
  const std::vector<std::int32_t> labels = {0, 1};
  auto error = [&](std::string_view options, std::vector<TensorIn> inputs) {
    TensorAnswer a = run_tensor_command("loss", options, inputs);
    CHECK_FALSE(a.answer.ok);
    CHECK(a.tensors.empty());
    return a.answer;
  };
  CHECK(error("{}", {f64("logits", logits, {1, 2, 2})}).field == "labels");
  CHECK(error("{}", {f64("logits", logits, {1, 2, 2}), f64("labels", logits, {1, 4})}).field == "labels");
  CHECK(error("{}", {f64("logits", logits, {1, 2, 2}), i32("labels", labels, {2, 1})}).field == "labels");
  CHECK(error("{}", {f64("logits", logits, {2, 2}), i32("labels", labels, {1, 2})}).field == "logits");
  CHECK(error("{}", {f64("logits", logits, {1, 2, 3}), i32("labels", labels, {1, 2})}).message ==
        "has shape [1][2][3] but holds 4 values");
  CHECK(error("{}", {f64("logits", logits, {1, 2, 2}), i32("labels", labels, {1, 2}), i32("mask", labels, {2})}).field ==
        "mask");
  CHECK(error(R"({"labels": [[0, 1]]})", {f64("logits", logits, {1, 2, 2}), i32("labels", labels, {1, 2})}).field ==
        "labels");
  CHECK(error(R"({"reduction": "avg"})", {f64("logits", logits, {1, 2, 2}), i32("labels", labels, {1, 2})}).field ==
        "reduction");
  CHECK(error("{", {}).field == "json");
  // A NaN logit is named by its cell, as the JSON path names it.
  const std::vector<double> nan_logits = {0, 0, std::nan(""), 0};
  CHECK(error("{}", {f64("logits", nan_logits, {1, 2, 2}), i32("labels", labels, {1, 2})}).field == "logits[0][1][0]");
  // The shape is bounded before anything is copied; the message is the JSON path's.
  TensorIn huge{"logits", DType::Float64, {4, 512, 1025}, logits.data(), 4u * 512u * 1025u};
  std::vector<std::int32_t> many(4 * 512, 0);
  ApiResult over = error("{}", {huge, i32("labels", many, {4, 512})});
  CHECK(over.field == "logits");
  CHECK(over.message == "has 2,099,200 values (B × T × V = 4 × 512 × 1,025); at most 2,097,152 are accepted (the request is too large)");
}

TEST_CASE("collate: rows end to end plus lengths give the JSON path's batch as [B,T] tensors") {
  // Two rows, [5, 6, 2] and [7, 2], pad = eos = 2, masked by value (README example).
  const std::vector<std::int32_t> ids = {5, 6, 2, 7, 2};
  const std::vector<std::int32_t> lengths = {3, 2};
  TensorAnswer typed = run_tensor_command("collate", R"({"pad_token_id": 2, "eos_token_id": 2, "label_policy": "mask_pad_id"})",
                                          {i32("input_ids", ids, {5}), i32("lengths", lengths, {2})});
  REQUIRE(typed.answer.ok);
  CHECK(tensor(typed, "input_ids").i32 == std::vector<std::int32_t>{5, 6, 2, 7, 2, 2});
  CHECK(tensor(typed, "input_ids").shape == std::vector<int>{2, 3});
  CHECK(tensor(typed, "attention_mask").i32 == std::vector<std::int32_t>{1, 1, 1, 1, 1, 0});
  CHECK(tensor(typed, "labels").i32 == std::vector<std::int32_t>{5, 6, -100, 7, -100, -100});
  CHECK(tensor(typed, "position_ids").i32 == std::vector<std::int32_t>{0, 1, 2, 0, 1, 2});
  CHECK(tensor(typed, "is_pad").u8 == std::vector<std::uint8_t>{0, 0, 0, 0, 0, 1});
  // Reason codes, named by label_reason_names: "" (trained), "padding" = 1, "pad_id" = 3.
  CHECK(tensor(typed, "label_reasons").u8 == std::vector<std::uint8_t>{0, 0, 3, 0, 3, 1});
  Json answer = parse_json(typed.answer.json);
  CHECK(to_json(*answer.find("label_reason_names")) == R"(["","padding","prompt","pad_id","boundary","given","user"])");
  Json reference = json_answer("collate", R"({"features": [{"input_ids": [5, 6, 2]}, {"input_ids": [7, 2]}],
                                             "pad_token_id": 2, "eos_token_id": 2, "label_policy": "mask_pad_id"})");
  for (const char* key : {"lengths", "seq_lengths", "rows", "shape"}) {
    CAPTURE(key);
    CHECK(to_json(*answer.find(key)) == to_json(*reference.find(key)));
  }
  CHECK(answer.find("label_reasons") == nullptr);
}

TEST_CASE("collate: labels and masks ride along; flatten packing has no attention_mask tensor") {
  const std::vector<std::int32_t> ids = {4, 5, 6, 7, 8};
  const std::vector<std::int32_t> lengths = {3, 2};
  const std::vector<std::int32_t> completion = {0, 1, 1, 0, 1};
  TensorAnswer typed = run_tensor_command("collate", R"({"pad_token_id": 0, "packing": "flatten"})",
                                          {i32("input_ids", ids, {5}), i32("lengths", lengths, {2}),
                                           i32("completion_mask", completion, {5})});
  REQUIRE(typed.answer.ok);
  for (const TensorOut& t : typed.tensors) CHECK(t.name != "attention_mask");
  // Flattened: one row; first token of each example is a boundary, prompts are masked.
  CHECK(tensor(typed, "labels").i32 == std::vector<std::int32_t>{-100, 5, 6, -100, 8});
  CHECK(tensor(typed, "position_ids").i32 == std::vector<std::int32_t>{0, 1, 2, 0, 1});
}

TEST_CASE("collate: lengths that do not add up, features in the JSON, or an unknown command are named") {
  const std::vector<std::int32_t> ids = {1, 2, 3};
  const std::vector<std::int32_t> lengths = {2, 2};
  CHECK(run_tensor_command("collate", R"({"pad_token_id": 0})", {i32("input_ids", ids, {3}), i32("lengths", lengths, {2})})
            .answer.field == "lengths");
  const std::vector<std::int32_t> fine = {2, 1};
  CHECK(run_tensor_command("collate", R"({"pad_token_id": 0, "features": []})",
                           {i32("input_ids", ids, {3}), i32("lengths", fine, {2})})
            .answer.field == "features");
  CHECK(run_tensor_command("attention", "{}", {}).answer.field == "command");
}

}  // TEST_SUITE
