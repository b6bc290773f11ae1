// transformer.cpp — see transformer.hpp.
//
// Buffers are row-major with N = B·T rows. A linear layer y = x W + b keeps W as [in, out], so
// the forward pass adds a·W[i, :] into y[n, :] (a contiguous "axpy" the compiler vectorises
// without reordering any sum); the backward pass does the same with the transposed copy.
#include "transformer.hpp"

#include <algorithm>
#include <cmath>

namespace masklab {

namespace {

constexpr double kInitSpread = 0.02;   // GPT-2's initializer_range (a standard deviation)
constexpr double kLayerNormEps = 1e-5;  // GPT-2's layer_norm_epsilon

// y[n, :] = bias + x[n, :] W, W [I, O].
template <typename R>
void linear(R* __restrict y, const R* __restrict x, const R* __restrict W, const R* __restrict bias, int N, int I,
            int O) {
  for (int n = 0; n < N; ++n) {
    R* yn = y + static_cast<std::size_t>(n) * O;
    for (int o = 0; o < O; ++o) yn[o] = bias ? bias[o] : R(0);
    const R* xn = x + static_cast<std::size_t>(n) * I;
    for (int i = 0; i < I; ++i) {
      const R a = xn[i];
      const R* wi = W + static_cast<std::size_t>(i) * O;
      for (int o = 0; o < O; ++o) yn[o] += a * wi[o];
    }
  }
}

// Given dy [N, O]: dx[n, :] += dy[n, :] Wᵀ (through W_t [O, I]), dW += xᵀ dy, db += Σ_n dy.
template <typename R>
void linear_backward(R* __restrict dx, R* __restrict dW, R* __restrict db, const R* __restrict dy,
                     const R* __restrict x, const R* __restrict W_t, int N, int I, int O) {
  for (int n = 0; n < N; ++n) {
    const R* dyn = dy + static_cast<std::size_t>(n) * O;
    const R* xn = x + static_cast<std::size_t>(n) * I;
    if (db)
      for (int o = 0; o < O; ++o) db[o] += dyn[o];
    for (int i = 0; i < I; ++i) {
      const R a = xn[i];
      R* dwi = dW + static_cast<std::size_t>(i) * O;
      for (int o = 0; o < O; ++o) dwi[o] += a * dyn[o];
    }
    if (dx) {
      R* dxn = dx + static_cast<std::size_t>(n) * I;
      for (int o = 0; o < O; ++o) {
        const R g = dyn[o];
        const R* wo = W_t + static_cast<std::size_t>(o) * I;
        for (int i = 0; i < I; ++i) dxn[i] += g * wo[i];
      }
    }
  }
}

template <typename R>
void transpose(std::vector<R>& out, const R* in, int rows, int cols) {
  out.resize(static_cast<std::size_t>(rows) * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) out[static_cast<std::size_t>(c) * rows + r] = in[static_cast<std::size_t>(r) * cols + c];
}

template <typename R>
void layer_norm(R* y, R* mean_out, R* rstd_out, const R* x, const R* gain, const R* bias, int N, int D) {
  for (int n = 0; n < N; ++n) {
    const R* xn = x + static_cast<std::size_t>(n) * D;
    R mean = 0;
    for (int d = 0; d < D; ++d) mean += xn[d];
    mean /= R(D);
    R var = 0;
    for (int d = 0; d < D; ++d) var += (xn[d] - mean) * (xn[d] - mean);
    var /= R(D);
    const R rstd = R(1) / std::sqrt(var + R(kLayerNormEps));
    R* yn = y + static_cast<std::size_t>(n) * D;
    for (int d = 0; d < D; ++d) yn[d] = (xn[d] - mean) * rstd * gain[d] + bias[d];
    mean_out[n] = mean;
    rstd_out[n] = rstd;
  }
}

// dx += LN'(x)ᵀ dy; dgain, dbias accumulated.
template <typename R>
void layer_norm_backward(R* dx, R* dgain, R* dbias, const R* dy, const R* x, const R* mean, const R* rstd,
                         const R* gain, int N, int D) {
  for (int n = 0; n < N; ++n) {
    const R* xn = x + static_cast<std::size_t>(n) * D;
    const R* dyn = dy + static_cast<std::size_t>(n) * D;
    R mean_dxhat = 0, mean_dxhat_xhat = 0;
    for (int d = 0; d < D; ++d) {
      const R xhat = (xn[d] - mean[n]) * rstd[n];
      const R dxhat = dyn[d] * gain[d];
      dgain[d] += dyn[d] * xhat;
      dbias[d] += dyn[d];
      mean_dxhat += dxhat;
      mean_dxhat_xhat += dxhat * xhat;
    }
    mean_dxhat /= R(D);
    mean_dxhat_xhat /= R(D);
    R* dxn = dx + static_cast<std::size_t>(n) * D;
    for (int d = 0; d < D; ++d) {
      const R xhat = (xn[d] - mean[n]) * rstd[n];
      dxn[d] += rstd[n] * (dyn[d] * gain[d] - mean_dxhat - xhat * mean_dxhat_xhat);
    }
  }
}

// GPT-2's "gelu_new": gelu(u) = 0.5 u (1 + tanh(y)), y = √(2/π) (u + 0.044715 u³).
// tanh(y) = 1 - 2 / (e^{2y} + 1): one exp instead of libm's tanh, which was a fifth of a training
// step. Saturates to ±1 without NaN (e^{2y} = inf gives 1, e^{2y} = 0 gives -1).
constexpr double kGeluC = 0.7978845608028654;  // √(2/π)
constexpr double kGeluA = 0.044715;

// t[i] = tanh(y(u[i])), g[i] = gelu(u[i]). Plain loops over raw pointers: no objects with
// destructors here, so Emscripten's exception support adds no trampoline around the exp calls.
template <typename R>
void gelu_forward(R* g, R* t, const R* u, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const R x = u[i];
    const R e = std::exp(R(2 * kGeluC) * (x + R(kGeluA) * x * x * x));
    t[i] = R(1) - R(2) / (e + R(1));
    g[i] = R(0.5) * x * (R(1) + t[i]);
  }
}

// dg[i] *= gelu'(u[i]) = 0.5 (1 + t) + 0.5 u (1 - t²) √(2/π) (1 + 3·0.044715 u²).
template <typename R>
void gelu_backward(R* dg, const R* t, const R* u, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const R x = u[i];
    dg[i] *= R(0.5) * (R(1) + t[i]) + R(0.5) * x * (R(1) - t[i] * t[i]) * R(kGeluC) * (R(1) + R(3 * kGeluA) * x * x);
  }
}

ParamSlice take(std::size_t& cursor, std::size_t size) {
  ParamSlice s{cursor, size};
  cursor += size;
  return s;
}

template <typename R>
void fill_uniform(std::vector<R>& v, const ParamSlice& s, Random& random, double spread) {
  const double half_width = spread * std::sqrt(3.0);  // U(-a, a) has standard deviation a/√3
  for (std::size_t i = 0; i < s.size; ++i) v[s.offset + i] = R((2 * random.uniform() - 1) * half_width);
}

template <typename R>
void fill(std::vector<R>& v, const ParamSlice& s, R value) {
  for (std::size_t i = 0; i < s.size; ++i) v[s.offset + i] = value;
}

}  // namespace

ModelLayout model_layout(const ModelConfig& c) {
  const std::size_t V = c.vocab_size, D = c.width, P = c.context, F = c.hidden();
  ModelLayout l;
  std::size_t cursor = 0;
  l.wte = take(cursor, V * D);
  l.wpe = take(cursor, P * D);
  for (int i = 0; i < c.layers; ++i) {
    LayerSlices s;
    s.ln1_gain = take(cursor, D);
    s.ln1_bias = take(cursor, D);
    s.w_qkv = take(cursor, D * 3 * D);
    s.b_qkv = take(cursor, 3 * D);
    s.w_out = take(cursor, D * D);
    s.b_out = take(cursor, D);
    s.ln2_gain = take(cursor, D);
    s.ln2_bias = take(cursor, D);
    s.w_fc = take(cursor, D * F);
    s.b_fc = take(cursor, F);
    s.w_proj = take(cursor, F * D);
    s.b_proj = take(cursor, D);
    l.layers.push_back(s);
  }
  l.lnf_gain = take(cursor, D);
  l.lnf_bias = take(cursor, D);
  l.size = cursor;
  return l;
}

template <typename Real>
Transformer<Real>::Transformer(const ModelConfig& config)
    : config_(config), layout_(model_layout(config)), params_(layout_.size, Real(0)), grads_(layout_.size, Real(0)),
      decay_(layout_.size, 0) {
  auto decay = [&](const ParamSlice& s) {
    for (std::size_t i = 0; i < s.size; ++i) decay_[s.offset + i] = 1;
  };
  decay(layout_.wte);
  decay(layout_.wpe);
  for (const LayerSlices& s : layout_.layers)
    for (const ParamSlice* m : {&s.w_qkv, &s.w_out, &s.w_fc, &s.w_proj}) decay(*m);
  acts_.resize(config.layers);
  w_qkv_t_.resize(config.layers);
  w_out_t_.resize(config.layers);
  w_fc_t_.resize(config.layers);
  w_proj_t_.resize(config.layers);
}

template <typename Real>
void Transformer<Real>::initialize(Random& random) {
  const double residual_spread = kInitSpread / std::sqrt(2.0 * config_.layers);
  fill_uniform(params_, layout_.wte, random, kInitSpread);
  fill_uniform(params_, layout_.wpe, random, kInitSpread);
  for (const LayerSlices& s : layout_.layers) {
    fill(params_, s.ln1_gain, Real(1));
    fill(params_, s.ln1_bias, Real(0));
    fill_uniform(params_, s.w_qkv, random, kInitSpread);
    fill(params_, s.b_qkv, Real(0));
    fill_uniform(params_, s.w_out, random, residual_spread);
    fill(params_, s.b_out, Real(0));
    fill(params_, s.ln2_gain, Real(1));
    fill(params_, s.ln2_bias, Real(0));
    fill_uniform(params_, s.w_fc, random, kInitSpread);
    fill(params_, s.b_fc, Real(0));
    fill_uniform(params_, s.w_proj, random, residual_spread);
    fill(params_, s.b_proj, Real(0));
  }
  fill(params_, layout_.lnf_gain, Real(1));
  fill(params_, layout_.lnf_bias, Real(0));
}

template <typename Real>
void Transformer<Real>::zero_gradients() {
  std::fill(grads_.begin(), grads_.end(), Real(0));
}

template <typename Real>
void Transformer<Real>::refresh_transposes() {
  const int V = config_.vocab_size, D = config_.width, F = config_.hidden();
  transpose(wte_t_, p(layout_.wte), V, D);
  for (int l = 0; l < config_.layers; ++l) {
    const LayerSlices& s = layout_.layers[l];
    transpose(w_qkv_t_[l], p(s.w_qkv), D, 3 * D);
    transpose(w_out_t_[l], p(s.w_out), D, D);
    transpose(w_fc_t_[l], p(s.w_fc), D, F);
    transpose(w_proj_t_[l], p(s.w_proj), F, D);
  }
}

template <typename Real>
const std::vector<Real>& Transformer<Real>::forward(const ModelInputs& in) {
  const int B = in.B, T = in.T, N = B * T;
  const int V = config_.vocab_size, D = config_.width, H = config_.heads, F = config_.hidden(), Dh = D / H;
  const std::size_t ND = static_cast<std::size_t>(N) * D;
  B_ = B;
  T_ = T;
  ids_.assign(in.input_ids, in.input_ids + N);
  positions_.assign(in.position_ids, in.position_ids + N);
  if (in.attention_mask) mask_.assign(in.attention_mask, in.attention_mask + N);
  else mask_.assign(N, 1);
  refresh_transposes();

  // Embeddings: token row + position row.
  std::vector<Real> x(ND);
  const Real* wte = p(layout_.wte);
  const Real* wpe = p(layout_.wpe);
  for (int n = 0; n < N; ++n)
    for (int d = 0; d < D; ++d)
      x[static_cast<std::size_t>(n) * D + d] =
          wte[static_cast<std::size_t>(ids_[n]) * D + d] + wpe[static_cast<std::size_t>(positions_[n]) * D + d];

  const Real scale = Real(1) / std::sqrt(Real(Dh));
  for (int l = 0; l < config_.layers; ++l) {
    const LayerSlices& s = layout_.layers[l];
    LayerActivations& a = acts_[l];
    a.x_in = x;
    a.ln1_mean.resize(N);
    a.ln1_rstd.resize(N);
    a.h1.resize(ND);
    layer_norm(a.h1.data(), a.ln1_mean.data(), a.ln1_rstd.data(), x.data(), p(s.ln1_gain), p(s.ln1_bias), N, D);
    a.qkv.resize(ND * 3);
    linear(a.qkv.data(), a.h1.data(), p(s.w_qkv), p(s.b_qkv), N, D, 3 * D);

    // Attention: query i reads key j when j <= i and mask[j] == 1 (causal AND padding mask).
    a.att.assign(static_cast<std::size_t>(B) * H * T * T, Real(0));
    a.att_y.assign(ND, Real(0));
    for (int b = 0; b < B; ++b)
      for (int h = 0; h < H; ++h)
        for (int i = 0; i < T; ++i) {
          const Real* q = &a.qkv[(static_cast<std::size_t>(b) * T + i) * 3 * D + h * Dh];
          Real* w = &a.att[((static_cast<std::size_t>(b) * H + h) * T + i) * T];
          Real max_score = 0;
          bool any = false;
          for (int j = 0; j <= i; ++j) {
            if (!mask_[b * T + j]) continue;
            const Real* k = &a.qkv[(static_cast<std::size_t>(b) * T + j) * 3 * D + D + h * Dh];
            Real score = 0;
            for (int e = 0; e < Dh; ++e) score += q[e] * k[e];
            score *= scale;
            w[j] = score;
            if (!any || score > max_score) max_score = score;
            any = true;
          }
          if (!any) continue;  // nothing to read: zero weights, zero output (SDPA, PyTorch >= 2.5)
          Real z = 0;
          for (int j = 0; j <= i; ++j)
            if (mask_[b * T + j]) z += (w[j] = std::exp(w[j] - max_score));
          Real* y = &a.att_y[(static_cast<std::size_t>(b) * T + i) * D + h * Dh];
          for (int j = 0; j <= i; ++j) {
            if (!mask_[b * T + j]) continue;
            w[j] /= z;
            const Real* v = &a.qkv[(static_cast<std::size_t>(b) * T + j) * 3 * D + 2 * D + h * Dh];
            for (int e = 0; e < Dh; ++e) y[e] += w[j] * v[e];
          }
        }

    std::vector<Real> attn_out(ND);
    linear(attn_out.data(), a.att_y.data(), p(s.w_out), p(s.b_out), N, D, D);
    for (std::size_t i = 0; i < ND; ++i) x[i] += attn_out[i];
    a.x_mid = x;

    a.ln2_mean.resize(N);
    a.ln2_rstd.resize(N);
    a.h2.resize(ND);
    layer_norm(a.h2.data(), a.ln2_mean.data(), a.ln2_rstd.data(), x.data(), p(s.ln2_gain), p(s.ln2_bias), N, D);
    a.u.resize(static_cast<std::size_t>(N) * F);
    linear(a.u.data(), a.h2.data(), p(s.w_fc), p(s.b_fc), N, D, F);
    a.g.resize(a.u.size());
    a.tanh.resize(a.u.size());
    gelu_forward(a.g.data(), a.tanh.data(), a.u.data(), a.u.size());
    std::vector<Real> mlp_out(ND);
    linear(mlp_out.data(), a.g.data(), p(s.w_proj), p(s.b_proj), N, F, D);
    for (std::size_t i = 0; i < ND; ++i) x[i] += mlp_out[i];
  }

  x_final_ = x;
  lnf_mean_.resize(N);
  lnf_rstd_.resize(N);
  xf_.resize(ND);
  layer_norm(xf_.data(), lnf_mean_.data(), lnf_rstd_.data(), x.data(), p(layout_.lnf_gain), p(layout_.lnf_bias), N, D);
  logits_.resize(static_cast<std::size_t>(N) * V);
  linear(logits_.data(), xf_.data(), wte_t_.data(), static_cast<const Real*>(nullptr), N, D, V);
  return logits_;
}

template <typename Real>
void Transformer<Real>::backward(const std::vector<Real>& dlogits) {
  const int B = B_, T = T_, N = B * T;
  const int V = config_.vocab_size, D = config_.width, H = config_.heads, F = config_.hidden(), Dh = D / H;
  const std::size_t ND = static_cast<std::size_t>(N) * D;
  const Real scale = Real(1) / std::sqrt(Real(Dh));

  // Output layer (tied to wte): logits = xf wteᵀ.
  std::vector<Real> dxf(ND, Real(0));
  Real* dwte = grad(layout_.wte);
  const Real* wte = p(layout_.wte);
  for (int n = 0; n < N; ++n) {
    const Real* dl = &dlogits[static_cast<std::size_t>(n) * V];
    const Real* xn = &xf_[static_cast<std::size_t>(n) * D];
    Real* dxn = &dxf[static_cast<std::size_t>(n) * D];
    for (int v = 0; v < V; ++v) {
      const Real g = dl[v];
      const Real* wv = wte + static_cast<std::size_t>(v) * D;
      Real* dwv = dwte + static_cast<std::size_t>(v) * D;
      for (int d = 0; d < D; ++d) {
        dxn[d] += g * wv[d];
        dwv[d] += g * xn[d];
      }
    }
  }
  std::vector<Real> dx(ND, Real(0));
  layer_norm_backward(dx.data(), grad(layout_.lnf_gain), grad(layout_.lnf_bias), dxf.data(), x_final_.data(),
                      lnf_mean_.data(), lnf_rstd_.data(), p(layout_.lnf_gain), N, D);

  for (int l = config_.layers - 1; l >= 0; --l) {
    const LayerSlices& s = layout_.layers[l];
    const LayerActivations& a = acts_[l];

    // MLP: x += gelu(h2 W_fc + b_fc) W_proj + b_proj.
    std::vector<Real> dg(static_cast<std::size_t>(N) * F, Real(0));
    linear_backward(dg.data(), grad(s.w_proj), grad(s.b_proj), dx.data(), a.g.data(), w_proj_t_[l].data(), N, F, D);
    gelu_backward(dg.data(), a.tanh.data(), a.u.data(), dg.size());
    std::vector<Real> dh2(ND, Real(0));
    linear_backward(dh2.data(), grad(s.w_fc), grad(s.b_fc), dg.data(), a.h2.data(), w_fc_t_[l].data(), N, D, F);
    layer_norm_backward(dx.data(), grad(s.ln2_gain), grad(s.ln2_bias), dh2.data(), a.x_mid.data(), a.ln2_mean.data(),
                        a.ln2_rstd.data(), p(s.ln2_gain), N, D);

    // Attention: x += att_y W_out + b_out.
    std::vector<Real> datt_y(ND, Real(0));
    linear_backward(datt_y.data(), grad(s.w_out), grad(s.b_out), dx.data(), a.att_y.data(), w_out_t_[l].data(), N, D, D);
    std::vector<Real> dqkv(ND * 3, Real(0));
    std::vector<Real> dw(T);
    for (int b = 0; b < B; ++b)
      for (int h = 0; h < H; ++h)
        for (int i = 0; i < T; ++i) {
          const Real* w = &a.att[((static_cast<std::size_t>(b) * H + h) * T + i) * T];
          const Real* dy = &datt_y[(static_cast<std::size_t>(b) * T + i) * D + h * Dh];
          const std::size_t qi = (static_cast<std::size_t>(b) * T + i) * 3 * D + h * Dh;
          // y_i = Σ_j w_ij v_j  ->  dv_j += w_ij dy_i,  dw_ij = dy_i · v_j
          Real dot = 0;  // Σ_j w_ij dw_ij
          for (int j = 0; j <= i; ++j) {
            dw[j] = 0;
            if (w[j] == Real(0)) continue;  // masked (or underflowed): no gradient through it
            const std::size_t vj = (static_cast<std::size_t>(b) * T + j) * 3 * D + 2 * D + h * Dh;
            for (int e = 0; e < Dh; ++e) {
              dw[j] += dy[e] * a.qkv[vj + e];
              dqkv[vj + e] += w[j] * dy[e];
            }
            dot += w[j] * dw[j];
          }
          // softmax: ds_ij = w_ij (dw_ij - Σ_k w_ik dw_ik); score = q·k · scale
          for (int j = 0; j <= i; ++j) {
            if (w[j] == Real(0)) continue;
            const Real ds = w[j] * (dw[j] - dot) * scale;
            const std::size_t kj = (static_cast<std::size_t>(b) * T + j) * 3 * D + D + h * Dh;
            for (int e = 0; e < Dh; ++e) {
              dqkv[qi + e] += ds * a.qkv[kj + e];
              dqkv[kj + e] += ds * a.qkv[qi + e];
            }
          }
        }
    std::vector<Real> dh1(ND, Real(0));
    linear_backward(dh1.data(), grad(s.w_qkv), grad(s.b_qkv), dqkv.data(), a.h1.data(), w_qkv_t_[l].data(), N, D, 3 * D);
    layer_norm_backward(dx.data(), grad(s.ln1_gain), grad(s.ln1_bias), dh1.data(), a.x_in.data(), a.ln1_mean.data(),
                        a.ln1_rstd.data(), p(s.ln1_gain), N, D);
  }

  // Embeddings: every position adds into its token's row and its position's row.
  Real* dwpe = grad(layout_.wpe);
  for (int n = 0; n < N; ++n)
    for (int d = 0; d < D; ++d) {
      dwte[static_cast<std::size_t>(ids_[n]) * D + d] += dx[static_cast<std::size_t>(n) * D + d];
      dwpe[static_cast<std::size_t>(positions_[n]) * D + d] += dx[static_cast<std::size_t>(n) * D + d];
    }
}

template class Transformer<float>;
template class Transformer<double>;

}  // namespace masklab
