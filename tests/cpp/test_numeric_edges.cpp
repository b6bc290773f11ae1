// test_numeric_edges.cpp — numbers at the edges of double (issue 11 §1b): the loss, its gradient,
// the accumulated averages and attention stay finite wherever the true value is a double, and
// where it is not, the answer says why instead of printing a silent null.
//
// Every expected value is worked out by hand in the comment above it; float64 throughout, exact
// equality unless a tolerance is stated.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "accumulation.hpp"
#include "api.hpp"
#include "attention.hpp"
#include "json.hpp"
#include "loss.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

// One row, one position (no shift): logits [V], one label.
LossInput one_token(std::vector<double> logits, int label) {
  LossInput in;
  in.B = 1;
  in.T = 1;
  in.V = static_cast<int>(logits.size());
  in.logits = std::move(logits);
  in.labels = {label};
  in.shift = false;
  return in;
}

AttentionInput qkv(double q, std::vector<double> k, std::vector<double> v, bool causal = false) {
  AttentionInput in;
  in.B = 1;
  in.T = static_cast<int>(k.size());
  in.D = 1;
  in.q.assign(k.size(), q);
  in.k = std::move(k);
  in.v = std::move(v);
  in.causal = causal;
  return in;
}

}  // namespace

TEST_SUITE("numeric edges") {

TEST_CASE("log-sum-exp relative to the max: logits [1e17, 1e17] give ln 2, not 0") {
  // m = 1e17, z = e^0 + e^0 = 2, loss = ln z - (x - m) = ln 2 - 0. The old (m + ln z) - x rounded
  // 1e17 + 0.69 back to 1e17 and gave 0.
  LossResult r = cross_entropy(one_token({1e17, 1e17}, 0));
  REQUIRE(r.loss);
  CHECK(*r.loss == std::log(2.0));
  CHECK(*r.loss == 0.6931471805599453);
}

TEST_CASE("the gradient at [1e308, 1e308] is softmax - onehot = [-0.5, 0.5]") {
  // Both logits equal: softmax [0.5, 0.5]; target 0: [0.5 - 1, 0.5]. Was [0, 1] when the softmax
  // was exp(x - (m + ln z)) with m + ln z rounding to m.
  LossInput in = one_token({1e308, 1e308}, 0);
  in.gradient = true;
  LossResult r = cross_entropy(in);
  REQUIRE(r.loss);
  CHECK(*r.loss == std::log(2.0));
  CHECK(r.gradient == std::vector<double>{-0.5, 0.5});
}

TEST_CASE("logits [1e308, -1e308]: the max's own loss is 0; the other's is not a double, and the answer says so") {
  // Target 0: z = 1 + e^(-2e308 -> -inf) = 1, loss = ln 1 - 0 = 0.
  LossResult easy = cross_entropy(one_token({1e308, -1e308}, 0));
  REQUIRE(easy.loss);
  CHECK(*easy.loss == 0.0);
  // Target 1: the true loss is 2e308 > DBL_MAX. Was: loss, sum and per_token null with no reason.
  LossResult r = cross_entropy(one_token({1e308, -1e308}, 1));
  CHECK_FALSE(r.loss);
  CHECK(std::isinf(r.per_token[0]));
  CHECK(contains(r.null_reason, "the loss at logits[0][0] is beyond the largest double"));
  CHECK(contains(r.null_reason, "PyTorch gives inf"));
  // Reduction "none" keeps its own reason and adds this one.
  LossInput none = one_token({1e308, -1e308}, 1);
  none.reduction = Reduction::None;
  LossResult rn = cross_entropy(none);
  CHECK(contains(rn.null_reason, "one loss per token"));
  CHECK(contains(rn.null_reason, "beyond the largest double"));
}

TEST_CASE("logits [1e308, -1e308] against target 1: no loss, but autograd's gradient is finite: [1, -1]") {
  // softmax = [1, 0] (e^(-2e308) = 0); d loss / d logits = softmax - onehot(1) = [1, -1], as
  // PyTorch's log_softmax backward gives next to its inf loss.
  LossInput in = one_token({1e308, -1e308}, 1);
  in.gradient = true;
  LossResult r = cross_entropy(in);
  CHECK_FALSE(r.loss);
  CHECK(r.gradient == std::vector<double>{1, -1});
  CHECK(r.gradient_null_reason.empty());
}

TEST_CASE("a sum of finite token losses beyond the double range is named as such") {
  // Two tokens, each logits [1e308, 0] against target 1: loss ln(1 + e^-1e308) - (0 - 1e308)
  // = 0 + 1e308 each, finite; their sum 2e308 is not.
  LossInput in;
  in.B = 1;
  in.T = 2;
  in.V = 2;
  in.logits = {1e308, 0, 1e308, 0};
  in.labels = {1, 1};
  in.shift = false;
  LossResult r = cross_entropy(in);
  CHECK(r.per_token == std::vector<double>{1e308, 1e308});
  CHECK_FALSE(r.loss);
  CHECK(contains(r.null_reason, "the sum of the per-token losses is beyond the largest double"));
}

TEST_CASE("num_items_in_batch 5e-324: sum / num_items is not a double, and the answer says so") {
  // logits [0, 0], target 1: sum ln 2; ln 2 / 5e-324 ~ 1.4e323 > DBL_MAX. Was null with no reason.
  LossInput in = one_token({0, 0}, 1);
  in.reduction = Reduction::SumOverNumItems;
  in.num_items_in_batch = 5e-324;
  in.gradient = true;
  LossResult r = cross_entropy(in);
  CHECK_FALSE(r.loss);
  CHECK(r.null_reason == "sum / num_items_in_batch = 0.6931471805599453 / 4.94065645841247e-324 is beyond the largest "
                         "double (~1.8e308; PyTorch gives inf)");
  CHECK(r.gradient.empty());  // 1 / 5e-324 = inf, as in the case below
  CHECK(contains(r.gradient_null_reason, "num_items_in_batch is 4.94065645841247e-324"));
}

TEST_CASE("num_items_in_batch 1e-310: a finite loss, and the gradient autograd gives (1 / 1e-310 = inf), with its reason") {
  // logits [0, -5], target 0: z = 1 + e^-5, loss = ln(1 + e^-5) ~ 0.0067153, divided by 1e-310
  // ~ 6.7e307: a double. Autograd's DivBackward sends back 1 / 1e-310, which is beyond the double
  // range: inf. nll backward puts -inf at the target; log_softmax backward g - p * sum(g) gives
  // -inf + p0 * inf = NaN at the target (p0 ~ 0.993) and 0 + p1 * inf = +inf at the other.
  LossInput in = one_token({0, -5}, 0);
  in.reduction = Reduction::SumOverNumItems;
  in.num_items_in_batch = 1e-310;
  in.gradient = true;
  LossResult r = cross_entropy(in);
  REQUIRE(r.loss);
  CHECK(*r.loss == doctest::Approx(std::log1p(std::exp(-5.0)) / 1e-310).epsilon(1e-12));
  CHECK(r.gradient.empty());
  CHECK(r.gradient_nan_count == 1);
  CHECK(r.gradient_inf_count == 1);
  // (1e-310 is subnormal: it prints as the 15 digits that read back to it, 9.99999999999997e-311.)
  CHECK(contains(r.gradient_null_reason, "so d loss / d sum = 1 / " + format_number(1e-310) + " = inf"));
}

TEST_CASE("accumulate: a micro-batch whose loss overflows leaves both averages absent, with its reason") {
  LossInput overflowing = one_token({1e308, -1e308}, 1);
  LossInput fine = one_token({0, 0}, 1);
  AccumulationResult r = accumulate({fine, overflowing});
  CHECK_FALSE(r.mean_of_means);
  CHECK_FALSE(r.global_token_mean);
  CHECK(contains(r.null_reason, "micro-batch 1: the loss at logits[0][0] is beyond the largest double"));
  // Two finite sums of 1e308 (logits [1e308, 0] against target 1) add up past the range.
  LossInput big = one_token({1e308, 0}, 1);
  AccumulationResult r2 = accumulate({big, big});
  CHECK_FALSE(r2.global_token_mean);
  CHECK(contains(r2.null_reason, "the summed loss of all micro-batches is beyond the largest double"));
}

TEST_CASE("attention with q = k = 1e200: the scores are not doubles, the weights are still exact") {
  // D = 1, scale 1: every score is 1e400 (inf), all equal, so the softmax is uniform: weights
  // [0.5, 0.5] and output (1 + 3) / 2 = 2 for both queries. Was: weights null.
  AttentionResult r = attend(qkv(1e200, {1e200, 1e200}, {1, 3}));
  CHECK(std::isinf(r.scores[0]));
  CHECK(r.weights == std::vector<double>{0.5, 0.5, 0.5, 0.5});
  CHECK(r.output == std::vector<double>{2, 2});
  CHECK(r.fully_masked_queries.empty());
  CHECK(contains(r.scores_null_reason, "beyond the largest double"));
}

TEST_CASE("attention: scores of +inf and -inf give weights 1 and 0; all -inf is not 'fully masked'") {
  // k = [1e200, -1e200]: scores [+1e400, -1e400]; the first key takes all the weight: output 1.
  AttentionResult r = attend(qkv(1e200, {1e200, -1e200}, {1, 3}));
  CHECK(r.weights[0] == 1.0);
  CHECK(r.weights[1] == 0.0);
  CHECK(r.output[0] == 1.0);
  // k = [-1e200, -1e200]: both scores -1e400, equal, so still uniform: output 2. The old code
  // took a max of -inf for "no visible key" and listed the query as fully masked.
  AttentionResult all_low = attend(qkv(1e200, {-1e200, -1e200}, {1, 3}));
  CHECK(all_low.fully_masked_queries.empty());
  CHECK(all_low.output == std::vector<double>{2, 2});
  // A finite batch has no reason: the field appears only when needed.
  CHECK(attend(qkv(1, {1, 2}, {1, 3})).scores_null_reason.empty());
}

TEST_CASE("through run_command: the reasons reach the JSON answers") {
  ApiResult loss = run_command("loss", R"({"logits": [[[1e308, -1e308]]], "labels": [[1]], "shift": false})");
  REQUIRE(loss.ok);
  Json l = parse_json(loss.json);
  CHECK(l.find("loss")->is_null());
  CHECK(contains(l.find("loss_null_reason")->as_string(), "beyond the largest double"));
  ApiResult att = run_command("attention", R"({"q": [[[1e200], [1e200]]], "k": [[[1e200], [1e200]]],
                                              "v": [[[1], [3]]], "causal": false})");
  REQUIRE(att.ok);
  Json a = parse_json(att.json);
  CHECK(to_json(*a.find("scores")) == "[[[null,null],[null,null]]]");
  CHECK(to_json(*a.find("weights")) == "[[[0.5,0.5],[0.5,0.5]]]");
  CHECK(to_json(*a.find("output")) == "[[[2],[2]]]");
  CHECK(contains(a.find("scores_null_reason")->as_string(), "beyond the largest double"));
}

}  // TEST_SUITE
