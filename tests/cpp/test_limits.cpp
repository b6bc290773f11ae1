// test_limits.cpp — bounded work (limits.hpp): every command refuses a too-large request before
// doing the work, with a message that names the field and says whether the request or the answer
// would be too large; and the requests that once took seconds and gigabytes (issue 11 §1) are now
// answered or refused at once.
//
// The largest accepted request of each command is run natively by `npm run bench` (time, memory)
// and through the WebAssembly module by tests/node/limits.test.mjs; here the bounds are checked
// on requests built just past them, with values written as short as possible ("0") so each test
// parses a few MB at most.
#include <doctest/doctest.h>

#include <string>

#include "api.hpp"
#include "inspect.hpp"
#include "json.hpp"
#include "limits.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

// [d0][d1][d2] of the same number text.
std::string cube(long d0, long d1, long d2, const char* value = "0") {
  std::string row = "[";
  for (long c = 0; c < d2; ++c) row += c ? std::string(",") + value : std::string(value);
  row += "]";
  std::string plane = "[";
  for (long b = 0; b < d1; ++b) plane += (b ? "," : "") + row;
  plane += "]";
  std::string s = "[";
  for (long a = 0; a < d0; ++a) s += (a ? "," : "") + plane;
  return s + "]";
}

// [rows][cols] of zeros.
std::string matrix(long rows, long cols) {
  const std::string c = cube(1, rows, cols);
  return c.substr(1, c.size() - 2);
}

ApiResult refused(std::string_view command, const std::string& request) {
  ApiResult r = run_command(command, request);
  CHECK_FALSE(r.ok);
  CHECK_FALSE(contains(r.message, "internal error"));
  return r;
}

}  // namespace

TEST_SUITE("limits") {

TEST_CASE("product saturates instead of wrapping; sizes print grouped in threes") {
  CHECK(product({4, 512, 1025}) == 2099200u);
  CHECK(product({1LL << 40, 1LL << 40}) == UINT64_MAX);
  CHECK(product({7, 0, 1LL << 62}) == 0u);
  CHECK(product({-3, 5}) == 0u);
  CHECK(grouped(0) == "0");
  CHECK(grouped(999) == "999");
  CHECK(grouped(1000) == "1,000");
  CHECK(grouped(16384000) == "16,384,000");
  CHECK(shape_text({1, 512, 32000}) == "1 × 512 × 32,000");
}

TEST_CASE("limit_request and limit_answer say which side is too large, naming the field") {
  CHECK_NOTHROW(limit_request("logits", "values", 10, 10));
  InputError request = input_error([] { limit_request("logits", "values", 11, 10); }, "request");
  CHECK(request.field == "logits");
  CHECK(request.message == "has 11 values; at most 10 are accepted (the request is too large)");
  InputError answer = input_error([] { limit_answer("q", "cells", 2000, 1000, "; use fewer positions"); }, "answer");
  CHECK(answer.field == "q");
  CHECK(answer.message ==
        "the answer would hold 2,000 cells, more than the 1,000 it may (the answer would be too large); use fewer positions");
}

TEST_CASE("the request's bytes are bounded before it is read") {
  std::string text = "{\"features\": [{\"input_ids\": [1]}], \"pad_token_id\": 0}";
  text.append(kMaxRequestBytes - text.size() + 1, ' ');
  ApiResult r = refused("collate", text);
  CHECK(r.field == "json");
  CHECK(contains(r.message, "at most 67,108,864 are accepted (the request is too large)"));
}

TEST_CASE("values are counted while parsing, with a bound per command") {
  CHECK(max_request_values("loss") > kMaxLossValues);  // logits plus their labels
  CHECK(max_request_values("collate") > 4 * 1048576u);  // ids, labels and two masks per token
  CHECK(max_request_values("a command added later") == kDefaultMaxValues);
  // One value more than collate accepts, as a flat list of zeros (2 bytes each): refused at the
  // value that crosses the bound, naming the top-level field it is in.
  std::string text = "{\"pad_token_id\": 0, \"features\": [{\"input_ids\": [0";
  for (size_t i = 0; i < max_request_values("collate"); ++i) text += ",0";
  text += "]}]}";
  ApiResult r = refused("collate", text);
  CHECK(r.field == "features");
  CHECK(contains(r.message, "the request has more than 4,259,840 values"));
}

TEST_CASE("loss just over 2 M logits is refused with its shape, before any maths") {
  // Regression (issue 11): 16 M + 1 values were refused only after 8.6 s and 1.75 GB.
  ApiResult r = refused("loss", "{\"logits\": " + cube(4, 512, 1025) + ", \"labels\": " + matrix(4, 512) + "}");
  CHECK(r.field == "logits");
  CHECK(r.message == "has 2,099,200 values (B × T × V = 4 × 512 × 1,025); at most 2,097,152 are accepted (the request is too large)");
}

TEST_CASE("a JSON gradient is bounded as an answer, not as a request") {
  const std::string labels = matrix(4, 512);
  ApiResult r = refused("loss", "{\"logits\": " + cube(4, 512, 257) + ", \"labels\": " + labels + ", \"gradient\": true}");
  CHECK(r.field == "gradient");
  CHECK(contains(r.message, "the answer would hold 526,336 gradient values"));
  CHECK(contains(r.message, "the answer would be too large"));
  // The same logits without the gradient are answered.
  CHECK(run_command("loss", "{\"logits\": " + cube(4, 512, 257) + ", \"labels\": " + labels + "}").ok);
}

TEST_CASE("accumulate bounds the logits of all micro-batches together") {
  const std::string mb = "{\"logits\": " + cube(1, 512, 1025) + ", \"labels\": " + matrix(1, 512) + "}";
  std::string text = "{\"micro_batches\": [";
  for (int i = 0; i < 4; ++i) text += (i ? "," : "") + mb;
  text += "]}";
  ApiResult r = refused("accumulate", text);
  CHECK(r.field == "micro_batches");
  CHECK(contains(r.message, "has 2,099,200 logits values in all micro-batches"));
}

TEST_CASE("attention with T = 4,000 from a 60 KB request: the answer would be too large") {
  // Regression (issue 11): no bound on T; this took 33 s and 5 GB for a 258 MB answer.
  const std::string qkv = cube(1, 4000, 1, "1");
  ApiResult r = refused("attention", "{\"q\": " + qkv + ", \"k\": " + qkv + ", \"v\": " + qkv + "}");
  CHECK(r.field == "q");
  CHECK(contains(r.message, "the answer would hold 16,000,000 score cells (B × T × T = 1 × 4,000 × 4,000)"));
  CHECK(contains(r.message, "the answer would be too large"));
}

TEST_CASE("attention bounds its multiply-adds too: T = 512 with D = 257 is refused as a request") {
  const std::string qkv = cube(1, 512, 257);
  ApiResult r = refused("attention", "{\"q\": " + qkv + ", \"k\": " + qkv + ", \"v\": " + qkv + "}");
  CHECK(r.field == "q");
  CHECK(contains(r.message, "multiply-adds to do (B × T × T × D = 1 × 512 × 512 × 257)"));
  CHECK(contains(r.message, "the request is too large"));
}

TEST_CASE("inspect with a 16,000-name vocab is answered: no V x V table is built") {
  // Regression (issue 11): a 149 KB request built a 16,000² bigram table, 4 GB.
  std::string vocab;
  for (int i = 0; i < 16000; ++i) vocab += (i ? ",\"w" : "\"w") + std::to_string(i) + "\"";
  ApiResult r = run_command("inspect", "{\"features\": [{\"input_ids\": [1, 2, 3]}], \"pad_token_id\": 0, \"vocab\": [" +
                                           vocab + "]}");
  REQUIRE(r.ok);
  Json answer = parse_json(r.json);
  CHECK(answer.find("vocab_size")->as_number() == 16000.0);
  CHECK(to_json(*answer.find("tokens")) == "[[\"w1\",\"w2\",\"w3\"]]");
}

TEST_CASE("inspect refuses a tiny model too large to fit, naming vocab, features or text_features") {
  // 16 x 256 positions x (the 4,883 names of the vocab) = 20,000,768 logits > 20,000,000.
  std::string features, vocab;
  for (int b = 0; b < kMaxInspectRows; ++b) {
    features += b ? ",{\"input_ids\": [" : "{\"input_ids\": [";
    for (int t = 0; t < kMaxInspectPositions; ++t) features += (t ? "," : "") + std::to_string(1 + b * 256 + t);
    features += "]}";
  }
  for (int i = 0; i < 4883; ++i) vocab += (i ? ",\"w" : "\"w") + std::to_string(i) + "\"";
  ApiResult r = refused("inspect", "{\"features\": [" + features + "], \"pad_token_id\": 0, \"vocab\": [" + vocab + "]}");
  CHECK(r.field == "vocab");
  CHECK(contains(r.message, "20,000,768 tiny-model logits (B × T × V = 16 × 256 × 4,883"));
  // 16 x 256 distinct ids and no vocab: V = 4,097 (the ids and the pad), answered.
  CHECK(run_command("inspect", "{\"features\": [" + features + "], \"pad_token_id\": 0}").ok);
}

TEST_CASE("inspect stops tokenising a text one token past 4,096, and counts rows before tokenising") {
  // Regression (issue 11): 80,000 distinct words were looked up one by one (6.4 s) before the
  // length check.
  std::string text;
  for (int i = 0; i < 80000; ++i) text += (i ? " w" : "w") + std::to_string(i);
  ApiResult r = refused("inspect", "{\"text_features\": [\"short\", {\"prompt\": \"" + text + "\", \"completion\": \"x\"}]}");
  CHECK(r.field == "text_features[1].prompt");
  CHECK(r.message == "has more than 4,096 tokens; at most 4,096 are accepted (the request is too large)");
  std::string many = "[";
  for (int i = 0; i < 17; ++i) many += i ? ",\"a\"" : "\"a\"";
  ApiResult rows = refused("inspect", "{\"text_features\": " + many + "]}");
  CHECK(rows.field == "text_features");
  CHECK(contains(rows.message, "has 17 rows; the grid shows at most 16"));
}

}  // TEST_SUITE

TEST_CASE("chat: prefix_breaks repeating one long message is refused (was 120 s, 8.5 GB, a 1.7 GB answer)") {
  // One assistant message over 262,144 tokens and prefix_breaks [0, 0, ...] x 1,000: every copy
  // was a warning listing all 262,144 positions.
  const int T = 262144;
  std::string ids = "[";
  for (int t = 0; t < T; ++t) ids += t ? ",5" : "5";
  ids += "]";
  std::string breaks = "[";
  for (int i = 0; i < 1000; ++i) breaks += i ? ",0" : "0";
  breaks += "]";
  const std::string messages = R"([{"role":"assistant","header":[0,1],"content":[1,)" + std::to_string(T - 1) +
                               "],\"tail\":[" + std::to_string(T - 1) + "," + std::to_string(T) + "]}]";
  ApiResult r = run_command("chat", "{\"input_ids\":" + ids + ",\"messages\":" + messages + ",\"prefix_breaks\":" + breaks + "}");
  CHECK_FALSE(r.ok);
  CHECK(r.field == "prefix_breaks[1]");
  CHECK(r.message == "is 0 after 0; list each once, in increasing order");
  // Once each is fine.
  ApiResult once = run_command("chat", "{\"input_ids\":" + ids + ",\"messages\":" + messages + ",\"prefix_breaks\":[0]}");
  CHECK(once.ok);
}

TEST_CASE("chat: boundary_tokens are bounded apart (each one is a warning) and listed once") {
  std::string many = "[";
  for (int i = 0; i <= 4000; ++i) many += (i ? "," : "") + std::to_string(i);
  many += "]";
  const std::string base = R"({"input_ids":[5,6,7],"messages":[{"role":"user","header":[0,1],"content":[1,2],"tail":[2,3]}])";
  ApiResult over = run_command("chat", base + ",\"boundary_tokens\":" + many + "}");
  CHECK_FALSE(over.ok);
  CHECK(over.field == "boundary_tokens");
  CHECK(contains(over.message, "has 4,001 entries; at most 4,000 are accepted (the request is too large)"));
  ApiResult twice = run_command("chat", base + ",\"boundary_tokens\":[1,1]}");
  CHECK_FALSE(twice.ok);
  CHECK(twice.field == "boundary_tokens[1]");
}
