// test_attention.cpp — single-head masked attention (attention.cpp): causal against
// bidirectional visibility, key padding, and what an all-ones mask does on each padding side
// (docs/semantics.md §6.1); a query that can see nothing gets zeros, or the NaN a plain softmax
// gives when asked (§6.2); an explicit scale replaces 1/sqrt(D) (§6.3).
//
// Fixtures use D=1 so every score is a product of two numbers. With q = k = 0 all scores are 0
// and a query's weights are uniform over the keys it may see: its output is the plain average
// of those keys' v — easy to check by hand. Doubles compared with Approx at epsilon 1e-12.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention.hpp"
#include "input_error.hpp"

using namespace masklab;

namespace {

constexpr double kEps = 1e-12;

AttentionInput make(int B, int T, int D, std::vector<double> q, std::vector<double> k, std::vector<double> v,
                    std::vector<int> mask, bool causal) {
  AttentionInput in;
  in.B = B;
  in.T = T;
  in.D = D;
  in.q = std::move(q);
  in.k = std::move(k);
  in.v = std::move(v);
  in.attention_mask = std::move(mask);
  in.causal = causal;
  return in;
}

// One row of T=3, D=1, q = k = 0 (uniform weights), v given.
AttentionInput uniform(std::vector<double> v, std::vector<int> mask, bool causal) {
  return make(1, 3, 1, {0, 0, 0}, {0, 0, 0}, std::move(v), std::move(mask), causal);
}

std::string visible_rows(const AttentionResult& r, int b, int T) {
  std::string s;
  for (int i = 0; i < T; ++i) {
    if (i) s += " ";
    for (int j = 0; j < T; ++j) s += r.visible[(static_cast<size_t>(b) * T + i) * T + j] ? "1" : "0";
  }
  return s;
}

bool no_nan(const AttentionResult& r) {
  for (double x : r.weights)
    if (!std::isfinite(x)) return false;
  for (double x : r.output)
    if (!std::isfinite(x)) return false;
  return true;
}

}  // namespace

TEST_SUITE("attention") {

TEST_CASE("a hand-checkable D=1 case, causal and bidirectional") {
  // q = [1, 1], k = [0, ln 3], v = [0, 1]. Scores q*k/sqrt(1) = [0, ln 3] for both queries.
  // Causal: query 0 sees key 0 only -> weights [1, 0], output 0; query 1 sees both ->
  // softmax(0, ln 3) = [1/4, 3/4], output 3/4.
  AttentionInput in = make(1, 2, 1, {1, 1}, {0, std::log(3.0)}, {0, 1}, {}, true);
  AttentionResult r = attend(in);
  CHECK(r.scores[1] == doctest::Approx(std::log(3.0)).epsilon(kEps));
  CHECK(r.weights[0] == doctest::Approx(1.0).epsilon(kEps));
  CHECK(r.weights[1] == 0.0);
  CHECK(r.output[0] == doctest::Approx(0.0));
  CHECK(r.weights[2] == doctest::Approx(0.25).epsilon(kEps));
  CHECK(r.weights[3] == doctest::Approx(0.75).epsilon(kEps));
  CHECK(r.output[1] == doctest::Approx(0.75).epsilon(kEps));

  // Bidirectional: query 0 now also sees key 1 -> [1/4, 3/4], output 3/4.
  in.causal = false;
  r = attend(in);
  CHECK(r.weights[0] == doctest::Approx(0.25).epsilon(kEps));
  CHECK(r.weights[1] == doctest::Approx(0.75).epsilon(kEps));
  CHECK(r.output[0] == doctest::Approx(0.75).epsilon(kEps));
}

TEST_CASE("scores are q.k / sqrt(D), kept before masking") {
  // D=4, q = k = [1,1,1,1]: 4 / 2 = 2 everywhere, also where the causal mask hides the key.
  std::vector<double> ones(8, 1.0);
  AttentionResult r = attend(make(1, 2, 4, ones, ones, ones, {}, true));
  for (double s : r.scores) CHECK(s == doctest::Approx(2.0).epsilon(kEps));
  CHECK(r.visible[1] == 0);
}

TEST_CASE("causal visibility is lower-triangular; bidirectional sees every key") {
  AttentionInput in = uniform({1, 2, 3}, {}, true);
  CHECK(visible_rows(attend(in), 0, 3) == "100 110 111");
  in.causal = false;
  CHECK(visible_rows(attend(in), 0, 3) == "111 111 111");
}

TEST_CASE("key padding hides a key from every query") {
  // mask [1,1,0]: the pad key 2 is hidden, even from query 2 itself.
  AttentionInput in = uniform({1, 2, 10}, {1, 1, 0}, false);
  CHECK(visible_rows(attend(in), 0, 3) == "110 110 110");
  in.causal = true;
  CHECK(visible_rows(attend(in), 0, 3) == "100 110 110");
}

TEST_CASE("an empty attention_mask means all ones") {
  AttentionResult a = attend(uniform({1, 2, 10}, {}, true));
  AttentionResult b = attend(uniform({1, 2, 10}, {1, 1, 1}, true));
  CHECK(a.output == b.output);
  CHECK(a.weights == b.weights);
}

TEST_CASE("right padding + all-ones mask leaves a causal batch's real-token outputs unchanged") {
  // Real tokens v = 1, 2 at t = 0, 1, a right pad v = 10 at t = 2 (docs/semantics.md §6.1).
  // Correct mask [1,1,0]: out0 = 1, out1 = (1+2)/2 = 1.5. All ones: the pad is after every real
  // query, so the causal mask already hides it: the same 1 and 1.5.
  AttentionResult correct = attend(uniform({1, 2, 10}, {1, 1, 0}, true));
  AttentionResult all_ones = attend(uniform({1, 2, 10}, {1, 1, 1}, true));
  CHECK(correct.output[0] == doctest::Approx(1.0).epsilon(kEps));
  CHECK(correct.output[1] == doctest::Approx(1.5).epsilon(kEps));
  CHECK(all_ones.output[0] == correct.output[0]);
  CHECK(all_ones.output[1] == correct.output[1]);
}

TEST_CASE("left padding + all-ones mask changes a causal batch's real-token outputs") {
  // Pad v = 10 at t = 0, real tokens v = 1, 2 at t = 1, 2 (docs/semantics.md §6.1).
  // Correct mask [0,1,1]: out1 = 1, out2 = 1.5. All ones: out1 = (10+1)/2 = 5.5,
  // out2 = (10+1+2)/3 = 13/3 — the real tokens read the pad.
  AttentionResult correct = attend(uniform({10, 1, 2}, {0, 1, 1}, true));
  AttentionResult all_ones = attend(uniform({10, 1, 2}, {1, 1, 1}, true));
  CHECK(correct.output[1] == doctest::Approx(1.0).epsilon(kEps));
  CHECK(correct.output[2] == doctest::Approx(1.5).epsilon(kEps));
  CHECK(all_ones.output[1] == doctest::Approx(5.5).epsilon(kEps));
  CHECK(all_ones.output[2] == doctest::Approx(13.0 / 3).epsilon(kEps));
}

TEST_CASE("bidirectional + all-ones mask changes real-token outputs on either side") {
  // docs/semantics.md §6.1: with right padding v = [1, 2, pad 10]: correct out0 = out1 = 1.5; all ones
  // out0 = out1 = 13/3.
  AttentionResult correct = attend(uniform({1, 2, 10}, {1, 1, 0}, false));
  AttentionResult all_ones = attend(uniform({1, 2, 10}, {1, 1, 1}, false));
  CHECK(correct.output[0] == doctest::Approx(1.5).epsilon(kEps));
  CHECK(correct.output[1] == doctest::Approx(1.5).epsilon(kEps));
  CHECK(all_ones.output[0] == doctest::Approx(13.0 / 3).epsilon(kEps));
  CHECK(all_ones.output[1] == doctest::Approx(13.0 / 3).epsilon(kEps));
}

TEST_CASE("a left pad under causal + correct mask is a fully masked query: zeros, listed, no NaN") {
  // Row 0 has no pads; row 1 = [pad, pad, real]: queries (1,0) and (1,1) can only see keys <= 0
  // and <= 1, all pads. PyTorch with -inf gives NaN there; here weights and output are 0.
  AttentionInput in = make(2, 3, 1, {0.5, -1, 2, 0.5, -1, 2}, {1, 1, 1, 1, 1, 1}, {1, 2, 3, 7, 8, 9},
                           {1, 1, 1, 0, 0, 1}, true);
  AttentionResult r = attend(in);
  REQUIRE(r.fully_masked_queries.size() == 2u);
  CHECK(r.fully_masked_queries[0] == std::pair<int, int>{1, 0});
  CHECK(r.fully_masked_queries[1] == std::pair<int, int>{1, 1});
  CHECK(no_nan(r));
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) CHECK(r.weights[(3 + i) * 3 + j] == 0.0);
    CHECK(r.output[3 + i] == 0.0);
  }
  // The real query (1,2) sees only itself: weight 1, output v = 9.
  CHECK(r.weights[(3 + 2) * 3 + 2] == doctest::Approx(1.0).epsilon(kEps));
  CHECK(r.output[5] == doctest::Approx(9.0).epsilon(kEps));
}

TEST_CASE("fully_masked_rows nan: the same query is marked NaN (softmax over -inf), other rows unchanged") {
  // Same batch as above. A plain softmax over a row of -inf: max = -inf, -inf - (-inf) = NaN, so
  // weights and output of queries (1,0) and (1,1) are NaN; torch >= 2.5 SDPA gives 0 (§6.2).
  AttentionInput in = make(2, 3, 1, {0.5, -1, 2, 0.5, -1, 2}, {1, 1, 1, 1, 1, 1}, {1, 2, 3, 7, 8, 9},
                           {1, 1, 1, 0, 0, 1}, true);
  AttentionResult zeros = attend(in);
  in.fully_masked_rows = FullyMaskedRows::NaN;
  AttentionResult nan = attend(in);
  CHECK(nan.fully_masked_rows_are_nan);
  CHECK_FALSE(zeros.fully_masked_rows_are_nan);
  CHECK(nan.fully_masked_queries == zeros.fully_masked_queries);
  CHECK(nan.weights == zeros.weights);  // the buffers stay finite; the flag says which rows are NaN
  CHECK(nan.output == zeros.output);
}

TEST_CASE("an explicit scale replaces 1/sqrt(D), as SDPA's scale= does") {
  // D=4, q = k = [1,1,1,1]: q.k = 4. Default scale 1/2 -> scores 2; scale 0.25 -> 1; scale 0 -> 0.
  // Causal, query 1 sees keys 0 and 1 with equal scores, so its weights are [1/2, 1/2] whatever
  // the scale; with q = [1,1,1,1] and k0 = 0, k1 = [1,1,1,1]: scores [0, 4 * scale].
  std::vector<double> ones(8, 1.0);
  AttentionInput in = make(1, 2, 4, ones, ones, ones, {}, true);
  AttentionResult def = attend(in);
  CHECK(def.scale == doctest::Approx(0.5).epsilon(kEps));
  in.scale = 0.25;
  AttentionResult quarter = attend(in);
  CHECK(quarter.scale == 0.25);
  for (double s : quarter.scores) CHECK(s == doctest::Approx(1.0).epsilon(kEps));

  // Query 1 against k0 = 0 and k1 = 1s: scores [0, 4 * scale]. scale ln(3)/4 -> [0, ln 3] ->
  // softmax [1/4, 3/4]; v = [0,0,0,0] and [1,1,1,1] -> output 3/4 in every dimension.
  AttentionInput two = make(1, 2, 4, ones, {0, 0, 0, 0, 1, 1, 1, 1}, {0, 0, 0, 0, 1, 1, 1, 1}, {}, true);
  two.scale = std::log(3.0) / 4;
  AttentionResult r = attend(two);
  CHECK(r.weights[2] == doctest::Approx(0.25).epsilon(kEps));
  CHECK(r.weights[3] == doctest::Approx(0.75).epsilon(kEps));
  CHECK(r.output[4] == doctest::Approx(0.75).epsilon(kEps));

  two.scale = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(attend(two), InputError);
}

TEST_CASE("weights rows sum to 1 for every query that sees a key") {
  // B=2, T=4, D=3 with uneven q, k and some padding; rows of fully masked queries sum to 0.
  const int B = 2, T = 4, D = 3;
  std::vector<double> q(B * T * D), k(B * T * D), v(B * T * D);
  for (int i = 0; i < B * T * D; ++i) {
    q[i] = std::sin(0.7 * i) * 3;
    k[i] = std::cos(1.3 * i) * 2;
    v[i] = i;
  }
  for (bool causal : {true, false}) {
    CAPTURE(causal);
    AttentionResult r = attend(make(B, T, D, q, k, v, {1, 1, 1, 0, 0, 1, 1, 1}, causal));
    CHECK(no_nan(r));
    for (int b = 0; b < B; ++b)
      for (int i = 0; i < T; ++i) {
        double sum = 0;
        for (int j = 0; j < T; ++j) sum += r.weights[(static_cast<size_t>(b) * T + i) * T + j];
        const bool masked = causal && b == 1 && i == 0;  // a left pad with no earlier key
        CAPTURE(b);
        CAPTURE(i);
        CHECK(sum == doctest::Approx(masked ? 0.0 : 1.0).epsilon(kEps));
      }
  }
}

TEST_CASE("large scores stay finite (the softmax subtracts the row max)") {
  AttentionResult r = attend(make(1, 2, 1, {1e3, 1e3}, {1e3, -1e3}, {1, 2}, {}, false));
  CHECK(no_nan(r));
  CHECK(r.weights[0] == doctest::Approx(1.0).epsilon(kEps));
  CHECK(r.output[0] == doctest::Approx(1.0).epsilon(kEps));
}

TEST_CASE("segment_ids hide keys of another packed example") {
  // One packed row, examples [0,0,1,1], causal: query 2 (first of example 1) sees only itself.
  // q = k = 0: uniform weights over the visible keys, so query 3 averages v = 3 and 5 -> 4.
  AttentionInput in = make(1, 4, 1, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 2, 3, 5}, {}, true);
  in.segment_ids = {0, 0, 1, 1};
  AttentionResult r = attend(in);
  CHECK(visible_rows(r, 0, 4) == "1000 1100 0010 0011");
  CHECK(r.output[2] == doctest::Approx(3.0).epsilon(kEps));
  CHECK(r.output[3] == doctest::Approx(4.0).epsilon(kEps));
}

TEST_CASE("bad shapes and non-finite inputs are InputErrors naming the tensor") {
  AttentionInput in = uniform({1, 2, 3}, {}, true);
  auto field_of = [](const AttentionInput& x) -> std::string {
    try {
      attend(x);
    } catch (const InputError& e) {
      return e.field;
    }
    return "(no error)";
  };
  SUBCASE("k of the wrong size") {
    in.k.pop_back();
    CHECK(field_of(in) == "k");
  }
  SUBCASE("mask of the wrong size") {
    in.attention_mask = {1, 1};
    CHECK(field_of(in) == "attention_mask");
  }
  SUBCASE("NaN in v") {
    in.v[1] = std::numeric_limits<double>::quiet_NaN();
    CHECK(field_of(in) == "v[0][1][0]");
  }
  SUBCASE("D = 0") {
    in.D = 0;
    CHECK(field_of(in) == "q");
  }
}

}  // TEST_SUITE
