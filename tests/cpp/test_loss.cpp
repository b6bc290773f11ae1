// test_loss.cpp — token cross-entropy with ignore_index, the causal shift and the reductions
// (loss.cpp), against torch.nn.functional.cross_entropy and transformers' ForCausalLMLoss /
// fixed_cross_entropy (docs/semantics.md §1.1, §1.2, §7.1, §7.3).
//
// Fixtures use logits whose softmax is a simple fraction: [ln 3, 0] gives p = [3/4, 1/4], so a
// token loss is ln(4/3) or ln 4; all-zero logits over V give ln V. Floats are double; exact
// formulas are compared with doctest::Approx at relative epsilon 1e-12 unless stated.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "input_error.hpp"
#include "loss.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

constexpr double kEps = 1e-12;
const double kLn2 = std::log(2.0), kLn3 = std::log(3.0), kLn4 = std::log(4.0);

// B=2, T=3, V=2, shift on.
//   row 0: logits [ln3,0] [0,0] [0,0], labels [-100, 0, 1]
//          logit 0 vs label[1]=0: p=3/4 -> ln(4/3); logit 1 vs label[2]=1: p=1/2 -> ln 2
//   row 1: logits [0,0] [ln3,0] [0,0], labels [-100,-100, 1]
//          logit 1 vs label[2]=1: p=1/4 -> ln 4
// sum = ln(4/3) + ln 2 + ln 4 = ln(32/3), 3 targets.
LossInput two_rows() {
  return loss_input(2, 3, 2,
              {kLn3, 0, 0, 0, 0, 0,   //
               0, 0, kLn3, 0, 0, 0},  //
              {-100, 0, 1,            //
               -100, -100, 1});
}

InputError loss_error(const LossInput& in) {
  return input_error([&] { cross_entropy(in); }, "cross_entropy accepted input it should have rejected");
}

// Deterministic, non-symmetric logits so the gradient check is not a special case.
std::vector<double> wiggly_logits(int n) {
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = std::sin(1.7 * i + 0.3) * 2.0 + 0.1 * i;
  return x;
}

// Central finite differences of the scalar loss against the analytic gradient.
// Step 1e-5: truncation error ~h^2 * |f'''| ~ 1e-10, rounding ~ 1e-16 / 1e-5 = 1e-11; tolerance 1e-6.
void check_gradient(LossInput in) {
  in.gradient = true;
  LossResult r = cross_entropy(in);
  REQUIRE(r.loss.has_value());
  REQUIRE(r.gradient.size() == in.logits.size());
  const double h = 1e-5;
  for (size_t i = 0; i < in.logits.size(); ++i) {
    LossInput plus = in, minus = in;
    plus.gradient = minus.gradient = false;
    plus.logits[i] += h;
    minus.logits[i] -= h;
    const double fd = (*cross_entropy(plus).loss - *cross_entropy(minus).loss) / (2 * h);
    CAPTURE(i);
    CHECK(std::fabs(fd - r.gradient[i]) < 1e-6);
  }
}

}  // namespace

TEST_SUITE("loss") {

TEST_CASE("mean: summed token loss over the number of targets") {
  LossResult r = cross_entropy(two_rows());
  REQUIRE(r.loss.has_value());
  CHECK(r.num_targets == 3);
  CHECK(r.sum == doctest::Approx(std::log(32.0 / 3.0)).epsilon(kEps));
  CHECK(*r.loss == doctest::Approx(std::log(32.0 / 3.0) / 3).epsilon(kEps));
  CHECK(r.null_reason.empty());
}

TEST_CASE("per_token and targets: logit t is scored against labels[t+1]") {
  LossResult r = cross_entropy(two_rows());
  CHECK(r.targets == std::vector<int>{0, 1, -100, -100, 1, -100});
  CHECK(r.per_token[0] == doctest::Approx(std::log(4.0 / 3.0)).epsilon(kEps));
  CHECK(r.per_token[1] == doctest::Approx(kLn2).epsilon(kEps));
  CHECK(r.per_token[2] == 0.0);  // the last logit is scored against the padded -100
  CHECK(r.per_token[3] == 0.0);
  CHECK(r.per_token[4] == doctest::Approx(kLn4).epsilon(kEps));
  CHECK(r.per_token[5] == 0.0);
  CHECK(r.per_example_targets == std::vector<int>{2, 1});
  CHECK(r.rows_without_targets.empty());
}

TEST_CASE("sum: the summed token loss") {
  LossInput in = two_rows();
  in.reduction = Reduction::Sum;
  LossResult r = cross_entropy(in);
  REQUIRE(r.loss.has_value());
  CHECK(*r.loss == doctest::Approx(std::log(32.0 / 3.0)).epsilon(kEps));
}

TEST_CASE("none: one loss per token and no scalar") {
  LossInput in = two_rows();
  in.reduction = Reduction::None;
  LossResult r = cross_entropy(in);
  CHECK_FALSE(r.loss.has_value());
  CHECK(r.null_reason.find("none") != std::string::npos);
  CHECK(r.per_token[4] == doctest::Approx(kLn4).epsilon(kEps));
  CHECK(r.sum == doctest::Approx(std::log(32.0 / 3.0)).epsilon(kEps));
}

TEST_CASE("per_example_mean: the mean of each row's token mean") {
  // Row 0: (ln(4/3) + ln 2) / 2 = ln(8/3) / 2; row 1: ln 4. Mean of the two.
  LossInput in = two_rows();
  in.reduction = Reduction::PerExampleMean;
  LossResult r = cross_entropy(in);
  REQUIRE(r.loss.has_value());
  REQUIRE(r.per_example_loss[0].has_value());
  REQUIRE(r.per_example_loss[1].has_value());
  CHECK(*r.per_example_loss[0] == doctest::Approx(std::log(8.0 / 3.0) / 2).epsilon(kEps));
  CHECK(*r.per_example_loss[1] == doctest::Approx(kLn4).epsilon(kEps));
  CHECK(*r.loss == doctest::Approx((std::log(8.0 / 3.0) / 2 + kLn4) / 2).epsilon(kEps));
}

TEST_CASE("sum_over_num_items: the sum divided by the given count (fixed_cross_entropy)") {
  // num_items_in_batch 4 (say, counted over a whole accumulation step): ln(32/3) / 4.
  LossInput in = two_rows();
  in.reduction = Reduction::SumOverNumItems;
  in.num_items_in_batch = 4;
  LossResult r = cross_entropy(in);
  REQUIRE(r.loss.has_value());
  CHECK(*r.loss == doctest::Approx(std::log(32.0 / 3.0) / 4).epsilon(kEps));
}

TEST_CASE("shift off: pre-shifted labels score the same pairs as unshifted labels with the shift") {
  // The labels two_rows() scores, already moved one to the left: [0,1,-100] / [-100,1,-100].
  LossInput in = two_rows();
  in.shift = false;
  in.labels = {0, 1, -100, -100, 1, -100};
  LossResult r = cross_entropy(in);
  CHECK(r.targets == std::vector<int>{0, 1, -100, -100, 1, -100});
  CHECK(r.num_targets == 3);
  CHECK(*r.loss == doctest::Approx(std::log(32.0 / 3.0) / 3).epsilon(kEps));
  CHECK(target_at(in, 0, 0) == 0);
  in.shift = true;
  CHECK(target_at(in, 0, 0) == 1);
  CHECK(target_at(in, 0, 2) == -100);  // nothing after the last position
}

TEST_CASE("double shift: pre-shifted labels plus the loss's shift score the next-next token (transformers #32944)") {
  // input_ids [0,1,2,3] (id = position), V=4. A perfect next-token model: logit t puts 1e4 on
  // token t+1 (t = 0..2), so log-softmax of the right token is 0 and of any other -1e4.
  std::vector<double> logits(16, 0.0);
  for (int t = 0; t < 3; ++t) logits[t * 4 + t + 1] = 1e4;
  SUBCASE("labels = input_ids: each logit gets the next token; loss 0") {
    LossInput in = loss_input(1, 4, 4, logits, {0, 1, 2, 3});
    LossResult r = cross_entropy(in);
    CHECK(r.targets == std::vector<int>{1, 2, 3, -100});
    CHECK(r.num_targets == 3);
    CHECK(*r.loss == doctest::Approx(0.0));
  }
  SUBCASE("labels pre-shifted to [1,2,3,-100]: logit 0 (which read token 0) is scored against token 2") {
    LossInput in = loss_input(1, 4, 4, logits, {1, 2, 3, -100});
    LossResult r = cross_entropy(in);
    CHECK(r.targets == std::vector<int>{2, 3, -100, -100});
    CHECK(r.num_targets == 2);  // one target fewer per row, too
    // Each scored logit puts 1e4 on the wrong token and 0 on the target: loss 1e4 per token.
    CHECK(*r.loss == doctest::Approx(1e4).epsilon(kEps));
  }
}

TEST_CASE("all targets ignored: mean has no loss and says NaN; sum is 0") {
  // PyTorch >= 1.11 returns NaN for a mean over zero targets (pytorch #70348) and 0 for the sum.
  LossInput in = loss_input(1, 3, 2, std::vector<double>(6, 0.0), {-100, -100, -100});
  LossResult mean = cross_entropy(in);
  CHECK_FALSE(mean.loss.has_value());
  CHECK(mean.num_targets == 0);
  CHECK(mean.null_reason.find("NaN") != std::string::npos);
  CHECK(mean.rows_without_targets == std::vector<int>{0});

  in.reduction = Reduction::Sum;
  LossResult sum = cross_entropy(in);
  REQUIRE(sum.loss.has_value());
  CHECK(*sum.loss == 0.0);

  SUBCASE("only label[0] is set: under the shift it is never scored") {
    LossInput first = loss_input(1, 3, 2, std::vector<double>(6, 0.0), {1, -100, -100});
    CHECK_FALSE(cross_entropy(first).loss.has_value());
  }
}

TEST_CASE("per_example_mean with an empty row: no loss, and the row is listed") {
  LossInput in = two_rows();
  in.labels = {-100, 0, 1, -100, -100, -100};
  in.reduction = Reduction::PerExampleMean;
  LossResult r = cross_entropy(in);
  CHECK_FALSE(r.loss.has_value());
  CHECK(r.rows_without_targets == std::vector<int>{1});
  CHECK_FALSE(r.per_example_loss[1].has_value());
  REQUIRE(r.per_example_loss[0].has_value());
  CHECK(*r.per_example_loss[0] == doctest::Approx(std::log(8.0 / 3.0) / 2).epsilon(kEps));
  CHECK(r.null_reason.find("row 1") != std::string::npos);
  CHECK(r.null_reason.find("NaN") != std::string::npos);
}

TEST_CASE("num_items_in_batch 0: no loss, with a reason; missing or negative: InputError") {
  LossInput in = two_rows();
  in.reduction = Reduction::SumOverNumItems;
  in.num_items_in_batch = 0;
  LossResult r = cross_entropy(in);
  CHECK_FALSE(r.loss.has_value());
  CHECK(r.null_reason.find("num_items_in_batch") != std::string::npos);

  in.num_items_in_batch.reset();
  CHECK(loss_error(in).field == "num_items_in_batch");
  in.num_items_in_batch = -1;
  CHECK(loss_error(in).field == "num_items_in_batch");
}

TEST_CASE("logits of +-1e4 stay finite and give the exact loss") {
  // log-softmax of [1e4, -1e4]: [0, -2e4] (exp(-2e4) underflows to 0 next to 1).
  LossInput in = loss_input(1, 1, 2, {1e4, -1e4}, {0});
  in.shift = false;
  LossResult r0 = cross_entropy(in);
  REQUIRE(r0.loss.has_value());
  CHECK(std::isfinite(*r0.loss));
  CHECK(*r0.loss == doctest::Approx(0.0));
  in.labels = {1};
  in.gradient = true;
  LossResult r1 = cross_entropy(in);
  REQUIRE(r1.loss.has_value());
  CHECK(*r1.loss == doctest::Approx(2e4).epsilon(kEps));
  // softmax [1, 0] minus one-hot [0, 1].
  CHECK(r1.gradient[0] == doctest::Approx(1.0).epsilon(kEps));
  CHECK(r1.gradient[1] == doctest::Approx(-1.0).epsilon(kEps));
}

TEST_CASE("a NaN or infinite logit is an InputError naming logits[b][t][v]") {
  LossInput in = two_rows();
  in.logits[1 * 6 + 1 * 2 + 0] = std::numeric_limits<double>::quiet_NaN();  // b=1, t=1, v=0
  InputError e = loss_error(in);
  CHECK(e.field == "logits[1][1][0]");
  CHECK(e.message.find("NaN") != std::string::npos);
  in = two_rows();
  in.logits[0 * 6 + 2 * 2 + 1] = std::numeric_limits<double>::infinity();  // b=0, t=2, v=1
  e = loss_error(in);
  CHECK(e.field == "logits[0][2][1]");
  CHECK(e.message.find("inf") != std::string::npos);
}

TEST_CASE("a label outside [0, V) that is not ignore_index is an InputError naming it") {
  LossInput in = two_rows();
  in.labels[2] = 2;  // V = 2
  InputError e = loss_error(in);
  CHECK(e.field == "labels[0][2]");
  CHECK(e.message.find("outside the vocabulary") != std::string::npos);
  in.labels[2] = -1;  // llama-cookbook #73: -1 is not -100
  CHECK(loss_error(in).field == "labels[0][2]");
}

TEST_CASE("a custom ignore_index is honoured") {
  LossInput in = two_rows();
  in.ignore_index = -1;
  in.labels = {-1, 0, 1, -1, -1, 1};
  LossResult r = cross_entropy(in);
  CHECK(r.num_targets == 3);
  CHECK(r.targets[3] == -1);
  CHECK(*r.loss == doctest::Approx(std::log(32.0 / 3.0) / 3).epsilon(kEps));
}

TEST_CASE("shapes that do not fit are InputErrors") {
  LossInput in = two_rows();
  in.labels.pop_back();
  CHECK(loss_error(in).field == "labels");
  in = two_rows();
  in.logits.pop_back();
  CHECK(loss_error(in).field == "logits");
  in = two_rows();
  in.V = 0;
  CHECK(loss_error(in).field == "logits");
}

TEST_CASE("gradient of every scalar reduction matches central finite differences") {
  // B=2, T=3, V=3; targets in both rows so every reduction is defined.
  LossInput in = loss_input(2, 3, 3, wiggly_logits(18), {-100, 2, 0, 1, -100, 1});
  SUBCASE("mean") { check_gradient(in); }
  SUBCASE("sum") {
    in.reduction = Reduction::Sum;
    check_gradient(in);
  }
  SUBCASE("per_example_mean") {
    in.reduction = Reduction::PerExampleMean;
    check_gradient(in);
  }
  SUBCASE("sum_over_num_items") {
    in.reduction = Reduction::SumOverNumItems;
    in.num_items_in_batch = 7;
    check_gradient(in);
  }
  SUBCASE("mean without the shift") {
    in.shift = false;
    check_gradient(in);
  }
  SUBCASE("masked_mean, from log_softmax_gather") {
    in.reduction = Reduction::MaskedMean;
    in.per_token_loss = PerTokenLoss::LogSoftmaxGather;
    check_gradient(in);
  }
}

TEST_CASE("mean gradient: each logit row sums to 0 over V, and unscored rows are 0") {
  // d/dz of -log softmax(z)[y] is softmax(z) - onehot(y): its entries sum to 1 - 1 = 0.
  LossInput in = loss_input(2, 3, 3, wiggly_logits(18), {-100, 2, 0, 1, -100, 1});
  in.gradient = true;
  LossResult r = cross_entropy(in);
  REQUIRE(r.gradient.size() == 18u);
  for (int bt = 0; bt < 6; ++bt) {
    double row = 0, magnitude = 0;
    for (int v = 0; v < 3; ++v) {
      row += r.gradient[bt * 3 + v];
      magnitude += std::fabs(r.gradient[bt * 3 + v]);
    }
    CAPTURE(bt);
    CHECK(std::fabs(row) < 1e-15);
    // Scored logits: (0,0)->2, (0,1)->0, (1,0)->-100, (1,1)->1; (0,2), (1,2) are past the end.
    const bool scored = r.targets[bt] != -100;
    CHECK((magnitude > 0) == scored);
  }
}

TEST_CASE("gradient: none is refused; the built-in mean over zero targets has a NaN loss but a zero gradient") {
  LossInput in = two_rows();
  in.gradient = true;
  in.reduction = Reduction::None;
  CHECK(loss_error(in).field == "gradient");

  // F.cross_entropy(reduction="mean") with every target ignored: the forward is 0/0 = NaN, but
  // nll_loss's backward only writes at scored targets and there are none, so every entry is 0
  // (docs/semantics.md §7.3).
  LossInput empty = loss_input(1, 2, 2, {0, 0, 0, 0}, {-100, -100});
  empty.gradient = true;
  LossResult r = cross_entropy(empty);
  CHECK_FALSE(r.loss.has_value());
  CHECK(r.gradient == std::vector<double>(4, 0.0));
  CHECK(r.gradient_nan_count == 0);
  CHECK(r.gradient_norm == 0.0);
  CHECK(r.gradient_null_reason.empty());
}

// The hand-written masked mean of docs/semantics.md §7.3:
//   keep = (targets != -100).float(); loss = (nll * keep).sum() / keep.sum()
// Autograd, by hand, for keep.sum() = 0: d loss / d (nll * keep).sum() = 1/0 = inf; the sum sends
// inf to every element; the product sends inf * keep = inf * 0 = NaN to every nll[t].
//   - nll from F.cross_entropy(reduction="none"): its backward writes -grad only where the target
//     is not ignored; here none is, so the NaN is never read and d loss / d logits = 0 exactly.
//   - nll = -log_softmax(z).gather(-1, labels.clamp(min=0)): gather's backward writes -NaN at
//     class 0 of every row it covers, log_softmax's backward g - softmax * sum(g) makes the whole
//     row NaN. With the shift the passage slices logits[:, :-1], so the last row is not covered.
TEST_CASE("masked mean over zero targets: NaN loss; zero gradient from cross_entropy, NaN gradient from gather") {
  // B=1, T=3, V=2, all-zero logits, every label -100.
  LossInput in = loss_input(1, 3, 2, std::vector<double>(6, 0.0), {-100, -100, -100});
  in.reduction = Reduction::MaskedMean;
  in.gradient = true;

  SUBCASE("cross_entropy: every entry exactly 0, norm 0 (what clip_grad_norm_ would return)") {
    LossResult r = cross_entropy(in);
    CHECK_FALSE(r.loss.has_value());
    CHECK(r.null_reason.find("keep.sum() is 0") != std::string::npos);
    CHECK(r.gradient == std::vector<double>(6, 0.0));
    CHECK(r.gradient_nan_count == 0);
    CHECK(r.gradient_inf_count == 0);
    CHECK(r.gradient_max_abs == 0.0);
    CHECK(r.gradient_norm == 0.0);
    CHECK(r.gradient_null_reason.empty());
  }
  SUBCASE("log_softmax_gather with the shift: rows 0 and 1 are NaN (2 x V = 4 entries), row 2 is not covered") {
    in.per_token_loss = PerTokenLoss::LogSoftmaxGather;
    LossResult r = cross_entropy(in);
    CHECK_FALSE(r.loss.has_value());
    CHECK(r.gradient.empty());
    CHECK(r.gradient_nan_count == 4);
    CHECK(r.gradient_inf_count == 0);
    CHECK_FALSE(r.gradient_max_abs.has_value());
    CHECK_FALSE(r.gradient_norm.has_value());
    CHECK(r.gradient_null_reason.find("4 NaN") != std::string::npos);
    CHECK(r.gradient_null_reason.find("inf * 0") != std::string::npos);
  }
  SUBCASE("log_softmax_gather without the shift: all 3 x V = 6 entries are NaN") {
    in.per_token_loss = PerTokenLoss::LogSoftmaxGather;
    in.shift = false;
    CHECK(cross_entropy(in).gradient_nan_count == 6);
  }
}

TEST_CASE("masked mean with targets: the same loss and gradient from either per-token loss") {
  // Row [ln3,0] [0,0] [0,0], labels [-100, -100, 1], shift: logit 0 -> label[1] = -100 (kept 0),
  // logit 1 -> label[2] = 1 with p = [1/2, 1/2]. keep.sum() = 1, loss = ln 2.
  // Gradient: logit 0 gets w = (1/1) * 0 = 0 from either source -> [0, 0];
  //           logit 1: softmax - onehot = [1/2, -1/2]; logit 2: not scored -> [0, 0].
  LossInput in = loss_input(1, 3, 2, {kLn3, 0, 0, 0, 0, 0}, {-100, -100, 1});
  in.reduction = Reduction::MaskedMean;
  in.gradient = true;
  const std::vector<double> expected = {0, 0, 0.5, -0.5, 0, 0};
  for (PerTokenLoss source : {PerTokenLoss::CrossEntropy, PerTokenLoss::LogSoftmaxGather}) {
    in.per_token_loss = source;
    LossResult r = cross_entropy(in);
    CAPTURE(static_cast<int>(source));
    REQUIRE(r.loss.has_value());
    CHECK(*r.loss == doctest::Approx(kLn2).epsilon(kEps));
    REQUIRE(r.gradient.size() == 6u);
    for (size_t i = 0; i < 6; ++i) CHECK(r.gradient[i] == doctest::Approx(expected[i]).epsilon(kEps));
    CHECK(r.gradient_nan_count == 0);
    CHECK(*r.gradient_max_abs == doctest::Approx(0.5).epsilon(kEps));
    CHECK(*r.gradient_norm == doctest::Approx(std::sqrt(0.5)).epsilon(kEps));
  }
  check_gradient(in);  // and the finite differences agree
}

TEST_CASE("per_example_mean with an empty row: finite gradient from cross_entropy, NaN in that row from gather") {
  // Row 0: [ln3,0] [0,0] [0,0], labels [-100, 0, 1]: targets 0 (p = 3/4) and 1 (p = 1/2), n = 2.
  // Row 1: every label -100, n = 0. B = 2.
  // Row 0's weight 1 / (B * n) = 1/4: logit 0 -> (p - onehot)/4 = [-1/16, 1/16],
  //   logit 1 -> [1/8, -1/8], logit 2 -> 0. Row 1's weight (1/(2*0)) * keep = inf * 0 = NaN:
  //   dropped by cross_entropy (nothing scored there), spread by gather over logits 0 and 1.
  LossInput in = loss_input(2, 3, 2, {kLn3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                            {-100, 0, 1, -100, -100, -100});
  in.reduction = Reduction::PerExampleMean;
  in.gradient = true;
  LossResult r = cross_entropy(in);
  CHECK_FALSE(r.loss.has_value());
  const std::vector<double> expected = {-1.0 / 16, 1.0 / 16, 0.125, -0.125, 0, 0, 0, 0, 0, 0, 0, 0};
  REQUIRE(r.gradient.size() == 12u);
  for (size_t i = 0; i < 12; ++i) CHECK(r.gradient[i] == doctest::Approx(expected[i]).epsilon(kEps));

  in.per_token_loss = PerTokenLoss::LogSoftmaxGather;
  LossResult g = cross_entropy(in);
  CHECK(g.gradient_nan_count == 4);  // row 1, logits 0 and 1, both classes
  CHECK(g.gradient.empty());
}

TEST_CASE("num_items_in_batch 0 with targets: the gradient is +inf and NaN, counted") {
  // Row [ln3,0] [0,0] [0,0], labels [-100, 0, 1]. w = 1/0 = inf at both scored logits.
  // Logit 0 (target 0, p = [3/4, 1/4]): g = [-inf, 0], sum -inf -> [-inf + inf, 0 + inf] = [NaN, inf].
  // Logit 1 (target 1, p = [1/2, 1/2]): [inf, NaN]. So 2 NaN, 2 inf.
  LossInput in = loss_input(1, 3, 2, {kLn3, 0, 0, 0, 0, 0}, {-100, 0, 1});
  in.reduction = Reduction::SumOverNumItems;
  in.num_items_in_batch = 0;
  in.gradient = true;
  LossResult r = cross_entropy(in);
  CHECK(r.gradient_nan_count == 2);
  CHECK(r.gradient_inf_count == 2);
  CHECK(r.gradient.empty());
  CHECK(r.gradient_null_reason.find("num_items_in_batch is 0") != std::string::npos);
}

TEST_CASE("per_token_loss log_softmax_gather belongs to hand-written reductions only") {
  LossInput in = two_rows();
  in.per_token_loss = PerTokenLoss::LogSoftmaxGather;
  CHECK(loss_error(in).field == "per_token_loss");  // reduction mean is F.cross_entropy's own
  in.reduction = Reduction::MaskedMean;
  in.ignore_index = 2;  // V = 2: clamp(min=0) keeps 2, outside [0, 2)
  in.labels = {2, 0, 1, 2, 2, 1};
  CHECK(loss_error(in).field == "ignore_index");
}

TEST_CASE("all-zero logits over V give ln V per token") {
  // One row [x, 1, 3] over V=4: two targets, each ln 4.
  LossInput in = loss_input(1, 3, 4, std::vector<double>(12, 0.0), {0, 1, 3});
  LossResult r = cross_entropy(in);
  CHECK(r.num_targets == 2);
  CHECK(*r.loss == doctest::Approx(kLn4).epsilon(kEps));
  CHECK(r.sum == doctest::Approx(2 * kLn4).epsilon(kEps));
}

}  // TEST_SUITE

TEST_CASE("per_example_sum: each row's summed token loss, minus its log-probability (DPO's sequence log-prob)") {
  // Row 0: ln(4/3) + ln 2 = ln(8/3); row 1: ln 4. Their sum is the batch sum ln(32/3).
  LossResult r = cross_entropy(two_rows());
  REQUIRE(r.per_example_sum.size() == 2);
  CHECK(r.per_example_sum[0] == doctest::Approx(std::log(8.0 / 3.0)).epsilon(kEps));
  CHECK(r.per_example_sum[1] == doctest::Approx(kLn4).epsilon(kEps));
  // A row with no target sums to exactly 0, whatever the reduction.
  LossInput empty = two_rows();
  empty.labels = {-100, 0, 1, -100, -100, -100};
  empty.reduction = Reduction::None;
  LossResult e = cross_entropy(empty);
  CHECK(e.per_example_sum[0] == doctest::Approx(std::log(8.0 / 3.0)).epsilon(kEps));
  CHECK(e.per_example_sum[1] == 0.0);
}

TEST_CASE("per_example_token_weight: how much one token of each row counts under each reduction") {
  // two_rows(): row 0 has 2 targets, row 1 has 1; N = 3, B = 2.
  auto weights = [](Reduction reduction, std::optional<double> num_items = std::nullopt) {
    LossInput in = two_rows();
    in.reduction = reduction;
    in.num_items_in_batch = num_items;
    return cross_entropy(in).per_example_token_weight;
  };
  using W = std::vector<std::optional<double>>;
  CHECK(weights(Reduction::Mean) == W{1.0 / 3, 1.0 / 3});                // token mean: 1/N for every token
  CHECK(weights(Reduction::Sum) == W{1.0, 1.0});
  CHECK(weights(Reduction::PerExampleMean) == W{1.0 / 4, 1.0 / 2});      // 1/(B N_b): 1/(2*2), 1/(2*1)
  CHECK(weights(Reduction::SumOverNumItems, 8.0) == W{1.0 / 8, 1.0 / 8});  // a constant, as Dr. GRPO's B*L_max
  CHECK(weights(Reduction::None) == W{std::nullopt, std::nullopt});      // no scalar loss, no weight
}

TEST_CASE("per_example_token_weight is the gradient's scale: d loss / d logit = weight * (softmax - onehot)") {
  // Row 1's one target: logit 1 of row 1 is [ln 3, 0], p = [3/4, 1/4], scored against label 1, so
  // d nll / d logits = p - onehot = [3/4, -3/4]. Under per_example_mean its weight is 1/2, so the
  // gradient is [3/8, -3/8].
  LossInput in = two_rows();
  in.reduction = Reduction::PerExampleMean;
  in.gradient = true;
  LossResult r = cross_entropy(in);
  REQUIRE(r.per_example_token_weight[1].has_value());
  CHECK(*r.per_example_token_weight[1] == doctest::Approx(0.5).epsilon(kEps));
  const size_t at = (1 * 3 + 1) * 2;  // row 1, logit 1, V = 2
  CHECK(r.gradient[at] == doctest::Approx(3.0 / 8).epsilon(kEps));
  CHECK(r.gradient[at + 1] == doctest::Approx(-3.0 / 8).epsilon(kEps));
}

TEST_CASE("per_example_token_weight is absent when the loss is undefined (an empty row under per_example_mean)") {
  LossInput in = two_rows();
  in.labels = {-100, 0, 1, -100, -100, -100};
  in.reduction = Reduction::PerExampleMean;
  LossResult r = cross_entropy(in);
  CHECK_FALSE(r.per_example_token_weight[0].has_value());
  CHECK_FALSE(r.per_example_token_weight[1].has_value());
}

TEST_CASE("gradient: the log-softmax kept from the forward pass gives the bits a fresh log_softmax per row gives") {
  // cross_entropy computes each scored row's max, shifted logits and log z once and reuses them
  // in the backward pass. Reference: the rule written out per row, from scratch, as autograd's
  // log_softmax backward reads it: g - exp(log_softmax(x)) * sum(g). Compared bit for bit (0 and
  // -0 apart), over both per-token losses; the gather also reaches ignored rows, which the
  // forward pass skipped. Rows include a max of -0 next to 0 and logits far below the max.
  const int B = 2, T = 5, V = 7;
  std::vector<double> logits = wiggly_logits(B * T * V);
  for (int v = 0; v < V; ++v) logits[3 * V + v] = v == 1 ? -0.0 : (v == 4 ? 0.0 : -3.0 - v);  // max -0, then 0
  logits[6 * V + 2] = -900;  // exp underflows to 0 in row 6
  const std::vector<int> labels = {-100, 3, 0, 6, -100, -100, 1, -100, 4, 2};
  for (PerTokenLoss source : {PerTokenLoss::CrossEntropy, PerTokenLoss::LogSoftmaxGather}) {
    LossInput in = loss_input(B, T, V, logits, labels);
    in.reduction = Reduction::PerExampleMean;
    in.per_token_loss = source;
    in.gradient = true;
    const LossResult r = cross_entropy(in);
    REQUIRE(r.gradient.size() == logits.size());
    REQUIRE(r.per_example_targets == std::vector<int>{3, 3});
    const bool gather = source == PerTokenLoss::LogSoftmaxGather;
    std::vector<double> expected(logits.size(), 0.0);
    for (int b = 0; b < B; ++b)
      for (int t = 0; t < (gather ? T - 1 : T); ++t) {
        const int y = target_at(in, b, t);
        if (!gather && y == -100) continue;
        const double* x = &logits[(b * T + t) * V];
        double m = x[0], z = 0, total = 0;
        for (int v = 1; v < V; ++v) m = std::max(m, x[v]);
        for (int v = 0; v < V; ++v) z += std::exp(x[v] - m);
        std::vector<double> g(V, 0.0);
        // per_example_mean's upstream: (1 / (B n_b)) * keep
        g[std::max(y, 0)] = -((1.0 / (static_cast<double>(B) * 3)) * (y == -100 ? 0.0 : 1.0));
        for (int v = 0; v < V; ++v) total += g[v];
        for (int v = 0; v < V; ++v) expected[(b * T + t) * V + v] = g[v] - std::exp((x[v] - m) - std::log(z)) * total;
      }
    CAPTURE(gather);
    for (size_t i = 0; i < expected.size(); ++i) {
      CAPTURE(i);
      CHECK(std::memcmp(&r.gradient[i], &expected[i], sizeof(double)) == 0);
    }
  }
}
