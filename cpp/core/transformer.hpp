// transformer.hpp — a tiny causal transformer (GPT-2 shaped) with a hand-written backward pass:
// the model the Train page trains.
//
//   logits = LN_f(block_L(… block_1(wte[input_ids] + wpe[position_ids]))) · wteᵀ      (tied)
//   block(x): x += Attn(LN_1(x)); x += MLP(LN_2(x)),  MLP(h) = gelu(h W_fc + b_fc) W_proj + b_proj
//
// It reads a batch the way a Hugging Face causal LM does (docs/semantics.md §9.1):
//   - position_ids pick rows of a learned position table, whatever they are (arange, from the
//     mask, …), so left padding with arange positions really moves the real tokens;
//   - attention_mask hides keys: query i reads key j only if j <= i and mask[j] == 1 (the causal
//     mask and the padding mask combined, docs/semantics.md §6.1); a masked key gets exactly zero
//     weight, and a query that can read no key gets zero weights and a zero output, as PyTorch's
//     SDPA does since 2.5 (§6.2) — never NaN.
// Not here: the loss (loss.cpp), the optimizer (adamw.cpp), batching (collate.cpp).
//
// Templated on the number type: float for training, double for the gradient checks in
// tests/cpp/test_transformer.cpp. Every loop runs in a fixed order and no sum is reassociated,
// so a seed gives the same numbers on every run (and SIMD builds stay deterministic).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "random.hpp"

namespace masklab {

struct ModelConfig {
  int vocab_size = 0;  // V
  int width = 32;      // D, the residual stream
  int heads = 2;       // H; the width must divide by it (head dim = D / H)
  int layers = 1;      // L
  int context = 16;    // P: learned positions 0 .. P-1
  int hidden() const { return 4 * width; }  // F, the MLP's inner width
};

// A padded batch as the model reads it. All buffers are [B,T] row-major.
struct ModelInputs {
  int B = 0, T = 0;
  const int* input_ids = nullptr;       // ids in [0, V)
  const int* attention_mask = nullptr;  // 1 = this key may be read; nullptr = all ones
  const int* position_ids = nullptr;    // rows of the position table, in [0, P)
};

// Where one named tensor sits in the flat parameter vector.
struct ParamSlice {
  std::size_t offset = 0, size = 0;
};

struct LayerSlices {
  ParamSlice ln1_gain, ln1_bias, w_qkv, b_qkv, w_out, b_out;  // w_qkv [D,3D], w_out [D,D]
  ParamSlice ln2_gain, ln2_bias, w_fc, b_fc, w_proj, b_proj;   // w_fc [D,F], w_proj [F,D]
};

struct ModelLayout {
  ParamSlice wte, wpe;  // [V,D] tokens (also the output layer), [P,D] positions
  std::vector<LayerSlices> layers;
  ParamSlice lnf_gain, lnf_bias;
  std::size_t size = 0;
};

ModelLayout model_layout(const ModelConfig& config);

template <typename Real>
class Transformer {
 public:
  explicit Transformer(const ModelConfig& config);

  const ModelConfig& config() const { return config_; }
  const ModelLayout& layout() const { return layout_; }
  std::vector<Real>& parameters() { return params_; }
  const std::vector<Real>& parameters() const { return params_; }
  std::vector<Real>& gradients() { return grads_; }
  // 1 where AdamW applies weight decay (the matrices and embeddings), 0 on biases and norms.
  const std::vector<std::uint8_t>& decay_mask() const { return decay_; }

  // GPT-2's initialisation with uniform noise of the same spread: weights ~ U(±0.02·√3), the
  // two projections back into the residual stream scaled by 1/√(2L), biases 0, norm gains 1.
  // Uniform, not normal: a Box-Muller draw needs log and cos, which round differently in
  // glibc and in Emscripten's libc, and the weights would no longer match across the two.
  void initialize(Random& random);

  // logits: [B,T,V]. Keeps what backward() needs. Inputs are trusted (checked by the caller).
  const std::vector<Real>& forward(const ModelInputs& inputs);

  // Adds d loss / d parameters into gradients(), given d loss / d logits [B,T,V] of the last
  // forward(). Call zero_gradients() before the first micro-batch of a step.
  void backward(const std::vector<Real>& dlogits);
  void zero_gradients();

  // Attention weights of the last forward, layer l: [B,H,T,T]; row (b,h,i) sums to 1 over the
  // keys query i may read, or is all 0 when it may read none.
  const std::vector<Real>& attention_weights(int layer) const { return acts_[layer].att; }

 private:
  struct LayerActivations {
    std::vector<Real> x_in, ln1_mean, ln1_rstd, h1, qkv, att, att_y, x_mid, ln2_mean, ln2_rstd, h2, u, tanh, g;
  };

  const Real* p(const ParamSlice& s) const { return params_.data() + s.offset; }
  Real* grad(const ParamSlice& s) { return grads_.data() + s.offset; }
  void refresh_transposes();

  ModelConfig config_;
  ModelLayout layout_;
  std::vector<Real> params_, grads_;
  std::vector<std::uint8_t> decay_;
  // Transposed copies, so forward and backward both walk memory in order: wteᵀ [D,V] and,
  // per layer, w_qkvᵀ [3D,D], w_outᵀ [D,D], w_fcᵀ [F,D], w_projᵀ [D,F].
  std::vector<Real> wte_t_;
  std::vector<std::vector<Real>> w_qkv_t_, w_out_t_, w_fc_t_, w_proj_t_;

  // The last forward's batch and activations.
  int B_ = 0, T_ = 0;
  std::vector<int> ids_, positions_, mask_;
  std::vector<LayerActivations> acts_;
  std::vector<Real> x_final_, lnf_mean_, lnf_rstd_, xf_, logits_;
};

extern template class Transformer<float>;
extern template class Transformer<double>;

}  // namespace masklab
