// adamw.hpp — the optimizer of the Train page: AdamW as torch.optim.AdamW computes it, and
// gradient clipping by global norm as torch.nn.utils.clip_grad_norm_ does (the Hugging Face
// Trainer's max_grad_norm = 1.0). docs/semantics.md §9.3.
//
// Not here: the learning-rate schedule (training.cpp) or which tensors are decayed (the model's
// decay_mask()).
#pragma once

#include <cstdint>
#include <vector>

namespace masklab {

struct AdamWOptions {
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0.01;  // torch.optim.AdamW's default; applied only where decay_mask is 1
};

template <typename Real>
class AdamW {
 public:
  AdamW(std::size_t size, AdamWOptions options);

  // One update with learning rate lr:
  //   p <- p (1 - lr·wd)                       (decoupled weight decay, where decay[i] = 1)
  //   m <- β1 m + (1-β1) g;  v <- β2 v + (1-β2) g²
  //   p <- p - lr/(1-β1^t) · m / (√v / √(1-β2^t) + eps)
  void step(std::vector<Real>& params, const std::vector<Real>& grads, const std::vector<std::uint8_t>& decay, double lr);

  int steps_taken() const { return t_; }

 private:
  AdamWOptions o_;
  std::vector<Real> m_, v_;
  int t_ = 0;
  double beta1_t_ = 1, beta2_t_ = 1;  // β^t, multiplied up step by step (no pow: same bits everywhere)
};

// Scales grads so their global L2 norm is at most max_norm; returns the norm before clipping.
// Example: grads {3, 4}, max_norm 1 -> norm 5, grads become {3, 4} · 1/(5 + 1e-6).
template <typename Real>
double clip_gradient_norm(std::vector<Real>& grads, double max_norm);

extern template class AdamW<float>;
extern template class AdamW<double>;

}  // namespace masklab
