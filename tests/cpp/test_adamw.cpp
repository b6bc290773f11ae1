// test_adamw.cpp — AdamW and gradient clipping (adamw.cpp) against the formulas of
// torch.optim.AdamW and torch.nn.utils.clip_grad_norm_ (docs/semantics.md §9.3), worked by hand.
// Doubles at 1e-12.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "adamw.hpp"

using namespace masklab;

TEST_CASE("AdamW's first step moves each parameter by lr against the sign of its gradient") {
  // Step 1: m = (1-β1) g, v = (1-β2) g²; bias-corrected m/(1-β1) = g, √(v/(1-β2)) = |g|, so the
  // update is lr · g / (|g| + eps) ≈ lr · sign(g). Decay first multiplies by (1 - lr·wd).
  AdamWOptions o;
  o.weight_decay = 0.1;
  AdamW<double> opt(3, o);
  std::vector<double> p = {1.0, 1.0, 1.0};
  const std::vector<double> g = {0.5, -2.0, 0.0};
  const std::vector<std::uint8_t> decay = {1, 0, 1};
  const double lr = 0.01;
  opt.step(p, g, decay, lr);
  CHECK(p[0] == doctest::Approx(1.0 * (1 - lr * 0.1) - lr * 0.5 / (0.5 + 1e-8)).epsilon(1e-12));
  CHECK(p[1] == doctest::Approx(1.0 + lr * 2.0 / (2.0 + 1e-8)).epsilon(1e-12));  // no decay here
  CHECK(p[2] == doctest::Approx(1.0 * (1 - lr * 0.1)).epsilon(1e-12));  // zero gradient: decay only
  CHECK(opt.steps_taken() == 1);
}

TEST_CASE("AdamW's second step uses the running averages and both bias corrections") {
  AdamWOptions o;
  o.weight_decay = 0;
  AdamW<double> opt(1, o);
  std::vector<double> p = {0.0};
  const std::vector<std::uint8_t> decay = {0};
  opt.step(p, {1.0}, decay, 0.1);
  const double after_one = p[0];  // -0.1 · 1/(1 + 1e-8)
  opt.step(p, {3.0}, decay, 0.1);
  // m2 = 0.9·0.1 + 0.1·3 = 0.39; v2 = 0.999·0.001 + 0.001·9 = 0.009999
  // update = 0.1/(1 - 0.81) · 0.39 / (√0.009999 / √(1 - 0.998001) + 1e-8)
  const double update = 0.1 / (1 - 0.81) * 0.39 / (std::sqrt(0.009999) / std::sqrt(1 - 0.998001) + 1e-8);
  CHECK(p[0] == doctest::Approx(after_one - update).epsilon(1e-12));
}

TEST_CASE("clipping by global norm: {3, 4} has norm 5 and is scaled to norm 1; a small gradient is kept") {
  std::vector<double> g = {3.0, 4.0};
  CHECK(clip_gradient_norm(g, 1.0) == doctest::Approx(5.0).epsilon(1e-12));
  CHECK(g[0] == doctest::Approx(3.0 / (5.0 + 1e-6)).epsilon(1e-12));
  CHECK(g[1] == doctest::Approx(4.0 / (5.0 + 1e-6)).epsilon(1e-12));
  std::vector<double> small = {0.3, 0.4};
  CHECK(clip_gradient_norm(small, 1.0) == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(small == std::vector<double>{0.3, 0.4});
}
