// tiny_model.hpp — the smallest "model" that behaves like training: a bigram table fitted on
// exactly the (input, target) pairs the labels train, and fixed token+position embeddings for
// the attention view.
//
// Because the bigram is fitted on whatever the labels score, labels = input_ids teaches it
// that a pad follows a pad with near certainty, so pad targets get a tiny loss and drag the
// mean down — as in real training (docs/semantics.md §3.6). Not a language model:
// no context beyond one token, no training loop; add-k smoothing keeps every logit finite.
#pragma once

#include <vector>

#include "batch.hpp"

namespace masklab {

constexpr double kBigramSmoothing = 0.1;

// logits: [B,T,V] = log P(next | input_ids[b][t]) from counts of scored pairs
// (input_ids[t], label at the scored position), plus kBigramSmoothing.
// Example: one pair (5 -> 6) in a V=8 table: P(6|5) = 1.1 / 1.8, every other P(·|5) = 0.1 / 1.8.
std::vector<double> bigram_logits(const Batch& batch, int V, bool shift);

// Deterministic D-dimensional vectors: a pseudo-random embedding of the token id plus a
// sinusoidal encoding of its position id. [B,T,D]
constexpr int kEmbeddingDim = 8;
std::vector<double> embed(const Batch& batch);

}  // namespace masklab
