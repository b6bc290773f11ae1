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

// The same bigram's loss at every scored position, without the [B,T,V] logits: what
// bigram_logits followed by cross_entropy gives (a test holds them equal), in O(N) time and
// memory for N = B·T (a radix sort of the scored pairs). Ids may be any values >= 0 (no
// renumbering needed); V is the vocabulary the smoothing spreads over.
// Returns [B,T]: -log P(label at the scored position | input_ids[b][t]), 0 where none is scored.
// Example: one pair (5 -> 6), V = 8: the loss at that position is ln(1.8 / 1.1).
std::vector<double> bigram_target_losses(const Batch& batch, int V, bool shift);

// The pairs themselves, for a caller that scores a batch of its own shape (the doctor): each
// pair's loss under the bigram fitted on all pairs, and under the bigram refitted without the
// held-out ones (0 for those) — both from one sort.
// Example: pairs (5→6), (5→6), (5→7 held out), V = 3: all: ln(3.3/2.1), ln(3.3/2.1), ln(3.3/1.1);
//   kept: ln(2.3/2.1) twice.
struct BigramPair {
  int input;   // the input id at the logit position
  int target;  // the label it is scored against (>= 0)
  bool held_out;
};
struct BigramPairLosses {
  std::vector<double> all;   // [pairs]
  std::vector<double> kept;  // [pairs], 0 where held out
};
BigramPairLosses bigram_pair_losses(const std::vector<BigramPair>& pairs, int V);

// Deterministic D-dimensional vectors: a pseudo-random embedding of the token id plus a
// sinusoidal encoding of its position id. [B,T,D]
constexpr int kEmbeddingDim = 8;
std::vector<double> embed(const Batch& batch);

}  // namespace masklab
