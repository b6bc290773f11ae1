// adamw.cpp — see adamw.hpp.
#include "adamw.hpp"

#include <cmath>

namespace masklab {

template <typename Real>
AdamW<Real>::AdamW(std::size_t size, AdamWOptions options) : o_(options), m_(size, Real(0)), v_(size, Real(0)) {}

template <typename Real>
void AdamW<Real>::step(std::vector<Real>& params, const std::vector<Real>& grads, const std::vector<std::uint8_t>& decay,
                       double lr) {
  ++t_;
  beta1_t_ *= o_.beta1;
  beta2_t_ *= o_.beta2;
  const Real step_size = Real(lr / (1 - beta1_t_));
  const Real sqrt_correction2 = Real(std::sqrt(1 - beta2_t_));
  const Real shrink = Real(1 - lr * o_.weight_decay);
  const Real b1 = Real(o_.beta1), b2 = Real(o_.beta2), eps = Real(o_.eps);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Real g = grads[i];
    if (decay[i]) params[i] *= shrink;
    m_[i] = b1 * m_[i] + (Real(1) - b1) * g;
    v_[i] = b2 * v_[i] + (Real(1) - b2) * g * g;
    params[i] -= step_size * m_[i] / (std::sqrt(v_[i]) / sqrt_correction2 + eps);
  }
}

template <typename Real>
double clip_gradient_norm(std::vector<Real>& grads, double max_norm) {
  double sum = 0;
  for (Real g : grads) sum += static_cast<double>(g) * static_cast<double>(g);
  const double norm = std::sqrt(sum);
  const double coef = max_norm / (norm + 1e-6);
  if (coef < 1)
    for (Real& g : grads) g = Real(g * coef);
  return norm;
}

template class AdamW<float>;
template class AdamW<double>;
template double clip_gradient_norm<float>(std::vector<float>&, double);
template double clip_gradient_norm<double>(std::vector<double>&, double);

}  // namespace masklab
