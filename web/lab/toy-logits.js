// toy-logits.js — hand-made logits for the lab's loss panels, so every loss comes from the core.
//
// The toy model puts logit `sure` on the right next token and 0 on the other V − 1 ids, so
// every target it scores has the same loss ln(1 + (V − 1)·e^−sure): small when it is sure,
// large when not. A row with n targets has T = n + 1 positions (the causal shift scores
// labels[1..n]); shorter rows are padded with −100 labels.
//
//   toyRow(2, 3, 4) -> labels [[1, 2, 3, -100]] and logits [[[...]]] with V = TOY_VOCAB
//
// Only builds inputs (logits [B][T][V], labels [B][T]); the core does the scoring.

export const TOY_VOCAB = 8; // ids 0..7
const IGNORE = -100;

// The id of the label at position t: 1..7 cycling, so targets are not all the same token.
function tokenAt(t) {
  return 1 + (t % (TOY_VOCAB - 1));
}

/** labels [T] for n targets, padded with −100 to length T (T >= n + 1). */
export function toyLabels(n, T) {
  return Array.from({ length: T }, (_, t) => (t <= n ? tokenAt(t) : IGNORE));
}

/** logits [T][V] for one row of labels: `sure` on labels[t + 1] where it is a target. */
export function toyLogits(labels, sure) {
  return labels.map((_, t) => {
    const next = labels[t + 1];
    return Array.from({ length: TOY_VOCAB }, (_, v) => (next !== undefined && next !== IGNORE && v === next ? sure : 0));
  });
}

/** A batch [B] of rows with `targets[b]` targets each and confidence `sure[b]`, padded to one T. */
export function toyBatch(targets, sure) {
  const T = Math.max(...targets) + 1;
  const labels = targets.map((n) => toyLabels(n, T));
  return { labels, logits: labels.map((row, b) => toyLogits(row, sure[b])) };
}

/** One micro-batch (a single row) with n targets: { logits [1][n+1][V], labels [1][n+1] }. */
export function toyMicroBatch(n, sure) {
  const labels = toyLabels(n, n + 1);
  return { labels: [labels], logits: [toyLogits(labels, sure)] };
}
