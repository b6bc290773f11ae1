// test_transformer.cpp — the Train page's tiny transformer (transformer.cpp): a forward pass
// worked by hand, the backward pass against finite differences, the attention reading exactly
// the mask and positions it is given (docs/semantics.md §9.1, §6.1, §6.2), and determinism.
//
// The hand-worked model has D = 2, one head and one layer, with every weight chosen so the maths
// is short: q = k = 0 (uniform weights over the visible keys), v = the normed input, identity
// output projection, a zero MLP. A layer norm over two numbers (a, b) is ±(1, -1) scaled by
// d / √(d² + ε) with d = (a - b)/2 — that ε = 1e-5 is kept in the expected values. Doubles,
// compared at 1e-12.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "loss.hpp"
#include "random.hpp"
#include "transformer.hpp"

using namespace masklab;

namespace {

constexpr double kEps = 1e-12;

// Layer norm of (a, b) with gain 1, bias 0: (d, -d) / √(d² + 1e-5), d = (a - b) / 2.
double normed(double a, double b) {
  const double d = (a - b) / 2;
  return d / std::sqrt(d * d + 1e-5);
}

ModelConfig config(int V, int D, int H, int L, int P) {
  ModelConfig c;
  c.vocab_size = V;
  c.width = D;
  c.heads = H;
  c.layers = L;
  c.context = P;
  return c;
}

void set(Transformer<double>& m, const ParamSlice& s, std::vector<double> values) {
  REQUIRE(values.size() == s.size);
  for (size_t i = 0; i < s.size; ++i) m.parameters()[s.offset + i] = values[i];
}

// V = 3 tokens with embeddings (1,0), (0,1), (0,0); no position signal; layer as described above.
Transformer<double> hand_model() {
  const ModelConfig c = config(3, 2, 1, 1, 4);
  Transformer<double> m(c);  // every parameter starts at 0
  const ModelLayout& l = m.layout();
  const LayerSlices& s = l.layers[0];
  set(m, l.wte, {1, 0, 0, 1, 0, 0});
  set(m, s.ln1_gain, {1, 1});
  set(m, s.ln2_gain, {1, 1});
  set(m, l.lnf_gain, {1, 1});
  // w_qkv [D, 3D]: columns 0-1 q, 2-3 k, 4-5 v; v = h (identity), q = k = 0.
  set(m, s.w_qkv, {0, 0, 0, 0, 1, 0, /**/ 0, 0, 0, 0, 0, 1});
  set(m, s.w_out, {1, 0, 0, 1});
  return m;
}

std::vector<double> run(Transformer<double>& m, std::vector<int> ids, std::vector<int> mask, std::vector<int> pos) {
  ModelInputs in;
  in.B = 1;
  in.T = static_cast<int>(ids.size());
  in.input_ids = ids.data();
  in.attention_mask = mask.data();
  in.position_ids = pos.data();
  return m.forward(in);
}

}  // namespace

TEST_CASE("forward pass worked by hand: tokens (1,0) and (0,1), both visible") {
  Transformer<double> m = hand_model();
  const std::vector<double> logits = run(m, {0, 1}, {1, 1}, {0, 1});
  // Query 0 reads key 0 only: y0 = LN(x0) = (n, -n), n = normed(1, 0); x0 + y0 = (1 + n, -n).
  // Query 1 reads both: y1 = mean of (n, -n) and (-n, n) = 0; x1 stays (0, 1).
  // Final norm, then logits = xf · wteᵀ = (xf0, xf1, 0).
  const double n = normed(1, 0);
  const double f0 = normed(1 + n, -n);
  const double f1 = normed(0, 1);
  const std::vector<double> expected = {f0, -f0, 0, f1, -f1, 0};
  REQUIRE(logits.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) CHECK(logits[i] == doctest::Approx(expected[i]).epsilon(kEps));
  const auto& w = m.attention_weights(0);  // [1,1,2,2]
  CHECK(w[0] == 1.0);
  CHECK(w[1] == 0.0);  // causal: query 0 never reads key 1
  CHECK(w[2] == doctest::Approx(0.5).epsilon(kEps));
  CHECK(w[3] == doctest::Approx(0.5).epsilon(kEps));
}

TEST_CASE("a masked key gets exactly zero weight, and a query with nothing to read gets zeros, not NaN") {
  Transformer<double> m = hand_model();
  // Left pad: key 0 is masked. Query 0 may read only key 0, so it reads nothing (SDPA >= 2.5:
  // zero weights, zero output); query 1 reads key 1 alone.
  const std::vector<double> logits = run(m, {0, 1}, {0, 1}, {0, 1});
  const auto& w = m.attention_weights(0);
  CHECK(w[0] == 0.0);
  CHECK(w[1] == 0.0);
  CHECK(w[2] == 0.0);  // the masked key, for the query that could otherwise read it
  CHECK(w[3] == 1.0);
  // Query 0: x0 + 0 = (1, 0). Query 1: (0, 1) + LN(0, 1) = (-m, 1 + m), m = normed(1, 0).
  const double mm = normed(1, 0);
  const double f0 = normed(1, 0);
  const double f1 = normed(-mm, 1 + mm);
  const std::vector<double> expected = {f0, -f0, 0, f1, -f1, 0};
  for (size_t i = 0; i < expected.size(); ++i) {
    CHECK(std::isfinite(logits[i]));
    CHECK(logits[i] == doctest::Approx(expected[i]).epsilon(kEps));
  }
}

TEST_CASE("what a masked position holds cannot reach the positions that may not read it") {
  const ModelConfig c = config(7, 8, 2, 2, 6);
  Transformer<double> m(c);
  Random random(7);
  m.initialize(random);
  // Row [5, 6, x, 3] with position 2 masked: positions 0, 1 and 3 must not depend on x.
  const std::vector<double> a = run(m, {5, 6, 1, 3}, {1, 1, 0, 1}, {0, 1, 2, 3});
  const std::vector<double> b = run(m, {5, 6, 4, 3}, {1, 1, 0, 1}, {0, 1, 2, 3});
  for (int t : {0, 1, 3})
    for (int v = 0; v < 7; ++v) CHECK(a[t * 7 + v] == b[t * 7 + v]);  // bit for bit
  bool pad_query_changed = false;
  for (int v = 0; v < 7; ++v) pad_query_changed = pad_query_changed || a[2 * 7 + v] != b[2 * 7 + v];
  CHECK(pad_query_changed);  // the masked position's own output still carries its token (residual)
}

TEST_CASE("position_ids choose the position rows: the same tokens at other positions give other logits") {
  const ModelConfig c = config(7, 8, 2, 1, 6);
  Transformer<double> m(c);
  Random random(3);
  m.initialize(random);
  const std::vector<double> from_zero = run(m, {5, 6, 3}, {1, 1, 1}, {0, 1, 2});
  const std::vector<double> shifted = run(m, {5, 6, 3}, {1, 1, 1}, {2, 3, 4});  // arange after 2 left pads
  const std::vector<double> again = run(m, {5, 6, 3}, {1, 1, 1}, {0, 1, 2});
  CHECK(from_zero != shifted);
  CHECK(from_zero == again);
  // Two left pads with positions from the mask (pads 1, real 0, 1, 2): real tokens match the
  // unpadded row exactly, because the pads are invisible to them and their positions are equal.
  const std::vector<double> padded = run(m, {0, 0, 5, 6, 3}, {0, 0, 1, 1, 1}, {1, 1, 0, 1, 2});
  for (int t = 0; t < 3; ++t)
    for (int v = 0; v < 7; ++v) CHECK(padded[(t + 2) * 7 + v] == from_zero[t * 7 + v]);
}

TEST_CASE("backward pass: every parameter's gradient matches central finite differences") {
  // Two layers, two heads, a left-padded row (one query reads nothing) and a right-padded row;
  // weights spread wider than the initialisation so no gradient is tiny. The loss is the
  // project's cross-entropy (mean over targets). Double precision: central differences with
  // h = 1e-6 are accurate to about 1e-9 here, so |analytic - numeric| <= 1e-7 + 1e-5·|analytic|.
  const ModelConfig c = config(5, 4, 2, 2, 5);
  Transformer<double> m(c);
  Random random(11);
  for (double& p : m.parameters()) p = random.uniform() - 0.5;

  const int B = 2, T = 4;
  const std::vector<int> ids = {0, 0, 3, 4, /**/ 2, 3, 1, 0};
  const std::vector<int> mask = {0, 1, 1, 1, /**/ 1, 1, 1, 0};
  const std::vector<int> pos = {1, 0, 1, 2, /**/ 0, 1, 2, 3};
  const std::vector<int> labels = {-100, 0, 3, 4, /**/ 2, 3, 1, -100};
  ModelInputs in;
  in.B = B;
  in.T = T;
  in.input_ids = ids.data();
  in.attention_mask = mask.data();
  in.position_ids = pos.data();

  auto loss_of = [&](bool gradient) {
    LossInput li;
    li.B = B;
    li.T = T;
    li.V = c.vocab_size;
    const std::vector<double>& logits = m.forward(in);
    li.logits = logits;
    li.labels = labels;
    li.gradient = gradient;
    return cross_entropy(li);
  };

  m.zero_gradients();
  const LossResult base = loss_of(true);
  m.backward(base.gradient);
  const std::vector<double> analytic = m.gradients();

  int checked = 0, nonzero = 0;
  for (size_t i = 0; i < m.parameters().size(); ++i) {
    const double keep = m.parameters()[i];
    const double h = 1e-6;
    m.parameters()[i] = keep + h;
    const double up = *loss_of(false).loss;
    m.parameters()[i] = keep - h;
    const double down = *loss_of(false).loss;
    m.parameters()[i] = keep;
    const double numeric = (up - down) / (2 * h);
    CAPTURE(i);
    CHECK(std::abs(analytic[i] - numeric) <= 1e-7 + 1e-5 * std::abs(analytic[i]));
    ++checked;
    if (std::abs(analytic[i]) > 1e-6) ++nonzero;
  }
  CHECK(checked == static_cast<int>(m.layout().size));
  // Position row 4 is never used, so its gradient is 0; nearly every other parameter has one.
  CHECK(nonzero > checked * 3 / 4);
}

TEST_CASE("the same seed gives the same weights and logits, bit for bit; another seed does not") {
  const ModelConfig c = config(9, 8, 2, 2, 6);
  Transformer<float> a(c), b(c), other(c);
  Random ra(5), rb(5), rc(6);
  a.initialize(ra);
  b.initialize(rb);
  other.initialize(rc);
  CHECK(a.parameters() == b.parameters());
  CHECK(a.parameters() != other.parameters());
  const std::vector<int> ids = {1, 4, 2}, mask = {1, 1, 1}, pos = {0, 1, 2};
  ModelInputs in;
  in.B = 1;
  in.T = 3;
  in.input_ids = ids.data();
  in.attention_mask = mask.data();
  in.position_ids = pos.data();
  const std::vector<float> la = a.forward(in);
  CHECK(la == b.forward(in));
}

TEST_CASE("initialisation follows GPT-2's spreads, with norm gains 1 and biases 0") {
  const ModelConfig c = config(26, 32, 2, 2, 16);
  Transformer<double> m(c);
  Random random(1);
  m.initialize(random);
  const ModelLayout& l = m.layout();
  auto spread = [&](const ParamSlice& s) {
    double sum = 0;
    for (size_t i = 0; i < s.size; ++i) sum += m.parameters()[s.offset + i] * m.parameters()[s.offset + i];
    return std::sqrt(sum / s.size);
  };
  // Standard deviation 0.02 (uniform noise of the same spread), 0.02/√(2L) = 0.01 for the two
  // projections into the residual stream; 832 to 4096 draws give about ±5% around it.
  CHECK(spread(l.wte) == doctest::Approx(0.02).epsilon(0.1));
  CHECK(spread(l.layers[0].w_fc) == doctest::Approx(0.02).epsilon(0.1));
  CHECK(spread(l.layers[1].w_proj) == doctest::Approx(0.01).epsilon(0.1));
  CHECK(m.parameters()[l.lnf_gain.offset] == 1.0);
  CHECK(m.parameters()[l.layers[0].b_qkv.offset] == 0.0);
  CHECK(m.decay_mask()[l.wte.offset] == 1);
  CHECK(m.decay_mask()[l.layers[0].b_fc.offset] == 0);
  CHECK(m.decay_mask()[l.lnf_gain.offset] == 0);
}
