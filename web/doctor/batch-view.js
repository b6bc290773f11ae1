// batch-view.js — which cells of a pasted batch the grid shows, and the grid's input made from
// the window the core returns (core.doctor with `view`).
//
//   const view = windowFor(finding, answer.figures);           // { rows, from, to } (visible indices)
//   const { response, highlight, rowLabels, positionLabels } = gridInput(windowAnswer.batch, finding, names);
//   grid.update(response, { highlight, rowLabels, positionLabels });
//
// Findings name cells by printed index (negative: counted from the end where PyTorch elided
// items); the core's window takes visible indices: printed r is visible r, or shown + r. Nothing
// here is a rule of padding or masking — only where to look.

export const MAX_GRID_ROWS = 8;
export const MAX_GRID_POSITIONS = 24;

export const visibleIndex = (printed, shown) => (printed < 0 ? shown + printed : printed);

// The rows and positions around a finding: the rows of its first cells (or its rows), and the
// positions from just before its first cell. Without a finding: the batch's top-left corner.
export function windowFor(finding, figures) {
  const [B, T] = figures.shown;
  const cells = (finding?.positions ?? []).map(([r, p]) => [visibleIndex(r, B), visibleIndex(p, T)]);
  const rows = [];
  for (const b of [...cells.map(([b]) => b), ...(finding?.rows ?? []).map((r) => visibleIndex(r, B))]) {
    if (rows.length < MAX_GRID_ROWS && !rows.includes(b)) rows.push(b);
  }
  if (!rows.length) for (let b = 0; b < Math.min(B, MAX_GRID_ROWS); b += 1) rows.push(b);
  rows.sort((a, b) => a - b);
  const width = Math.min(T, MAX_GRID_POSITIONS);
  const flagged = cells.filter(([b]) => rows.includes(b)).map(([, t]) => t);
  let from = 0;
  if (flagged.length) {
    // Two cells of context before the first flagged one, moved right if that keeps the last in view.
    const first = Math.min(...flagged);
    const last = Math.max(...flagged);
    from = last - first < width ? Math.max(first - 2, last - width + 1) : first - 2;
    from = Math.max(0, Math.min(from, T - width));
  }
  return { rows, from, to: from + width };
}

// The token grid's input (an inspect-like response) for a window of the batch. Rows shorter
// than the window (JSONL examples) are filled with null: the grid shows those cells as absent.
export function gridInput(batch, finding, { figures, tokenNames = null, label = (f) => f.id }) {
  const width = batch.positions.length;
  const fill = (rows, value = null) => rows?.map((row) => [...row, ...Array(width - row.length).fill(value)]) ?? null;
  const ids = fill(batch.input_ids);
  const response = {
    batch: {
      input_ids: ids,
      attention_mask: fill(batch.attention_mask),
      labels: fill(batch.labels),
      label_reasons: fill(batch.label_reasons, ''),
      position_ids: fill(batch.position_ids),
      is_pad: fill(batch.is_pad, 0),
      segment_start: fill(batch.segment_start, 0),
      seq_lengths: null,
    },
    tokens: ids.map((row) => row.map((id) => (id === null ? '' : tokenNames?.get(id) ?? `#${id}`))),
    vocab: [],
  };
  const [B, T] = figures.shown;
  const highlight = new Map();
  if (finding) {
    for (const [r, p] of finding.positions) {
      const b = batch.rows.indexOf(r);
      const t = batch.positions.indexOf(p);
      if (b >= 0 && t >= 0) highlight.set(`${b}.${t}`, label(finding));
    }
  }
  return {
    response,
    highlight,
    rowLabels: batch.rows,
    positionLabels: batch.positions,
    // What the window leaves out, for the caption.
    hidden: { rows: B - batch.rows.length, positions: T - width },
  };
}
