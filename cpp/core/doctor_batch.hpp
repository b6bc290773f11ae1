// doctor_batch.hpp — the pasted fields the doctor's checks read, aligned on one grid of the
// cells the paste shows, plus what the batch's layout says: which cells are padding (and on which
// side) and where packed examples start.
//
// The grid is the printed batch as far as it is visible. When PyTorch elided rows or positions
// with `...`, the grid holds the visible ones, and each keeps its printed index: 0, 1, 2 from the
// start, -3, -2, -1 from the end (Python's indexing), because the true extent is not printed.
// JSONL and plain Python lists may be ragged (one example per row, before padding): row b then
// has length[b] cells.
//
// Not here: judging anything (doctor_check_*.cpp). Shapes that disagree are not errors here:
// the field is left out of the grid and described in `shape_problems`, which the `shapes` check
// turns into a finding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "batch.hpp"
#include "printed_batch.hpp"

namespace masklab {

// How the pasted attention_mask reads (docs/semantics.md §10.2).
enum class MaskKind {
  Binary,       // 0/1 (or True/False): what transformers expects
  SequenceIds,  // 0 and 1..k: axolotl / LLaMA-Factory packing ids
  Additive,     // 0 and large negatives / -inf: a float mask already inverted for the softmax
  Other         // fractions, other negatives, NaN
};

// Where the pad map came from.
enum class PadSource {
  None,           // nothing says which cells are padding
  AttentionMask,  // the 0s at a row's ends
  PadId,          // runs of pad_token_id at a row's ends (no attention_mask)
  Unpadded        // ragged rows (JSONL, Python lists): each row has its own length, nothing is padding
};

enum class PadSide { None, Right, Left, Mixed, Unknown };
const char* pad_side_name(PadSide s);  // "none" | "right" | "left" | "mixed" | "unknown"

struct ShapeProblem {
  std::string field;
  std::string message;             // "labels has 7 positions per row but input_ids has 8"
  std::vector<int> rows;           // visible rows involved (empty: the whole field)
  bool one_shorter = false;        // every involved row is exactly one position shorter
};

struct DoctorBatch {
  int B = 0, T = 0;                   // visible rows; visible positions of the longest row
  std::vector<int> row_index;         // [B] printed row index (negative: counted from the end)
  std::vector<int> position_index;    // [T] printed position
  int row_gap = -1;                   // visible row before which PyTorch printed "..." (-1: none)
  int position_gap = -1;              // visible position before which it printed "..."
  std::vector<int> length;            // [B] cells of row b (ragged rows); T otherwise
  bool ragged = false;                // rows of different lengths (JSONL, Python lists)

  // [B,T] row-major, cell (b, t) at b * T + t; cells at t >= length[b] hold 0 (labels: -100).
  std::vector<int> input_ids;
  std::optional<std::vector<int>> attention_mask;   // as a model reads it: 1 where nonzero
  std::optional<std::vector<int>> labels;
  std::optional<std::vector<int>> position_ids;
  std::optional<std::vector<int>> completion_mask;  // nonzero -> 1
  std::optional<std::vector<int>> assistant_masks;  // nonzero -> 1
  std::optional<std::vector<int>> seq_idx;

  MaskKind mask_kind = MaskKind::Binary;
  std::optional<std::vector<int>> mask_ids;  // SequenceIds: the raw ids 0, 1..k (packed examples)
  std::vector<double> mask_odd_values;   // up to 8 distinct values that are not 0 or 1
  std::vector<int> mask_odd_cells;       // the first cell (b * T + t) of each of them

  bool labels_pasted = false;                  // the paste has a labels field (aligned or not)
  std::optional<std::vector<int>> row_labels;  // one label per row (sequence classification): [B]
  bool labels_elsewhere = false;  // encoder-decoder: labels are the decoder's targets, their own grid
  std::vector<int> target_length; // labels_elsewhere: [B] label cells per row
  std::vector<int> targets_grid;  // labels_elsewhere: [B, target_T]
  int target_T = 0;

  std::string lengths_field;           // the packed-lengths field read (cu_seq_lens_q, seq_lens…), if any
  std::vector<long long> lengths_starts;  // the packed example starts it gives (index in the token stream)
  long long lengths_total = 0;         // the tokens it accounts for

  std::vector<ShapeProblem> shape_problems;
  std::vector<std::string> unread;     // pasted fields the doctor does not check

  // Layout, derived by derive_layout():
  PadSource pad_source = PadSource::None;
  PadSide pad_side = PadSide::Unknown;
  std::vector<std::uint8_t> is_pad;    // [B,T] 1 where the cell is padding
  std::vector<int> pads_left, pads_right;  // [B]
  bool assumed_end_token = false;      // pad == end id without a mask: the first pad of each run
                                       // was taken as the row's real end token
  std::vector<std::uint8_t> segment_start;  // [B,T] 1 where a packed example starts (t > 0)
  std::string packing_source;          // "" when not packed; else what showed the boundaries
  bool packed = false;

  int at(int b, int t) const { return b * T + t; }
  bool elided() const { return row_gap >= 0 || position_gap >= 0; }
  // Whether cells t and t + 1 of row b are both present and truly next to each other.
  bool adjacent(int b, int t) const { return t + 1 < length[b] && t + 1 != position_gap; }
  bool real(int b, int t) const { return t < length[b] && !is_pad[at(b, t)]; }
};

struct DoctorLayoutHints {
  std::optional<int> pad_token_id;
  std::vector<int> end_ids;  // eos / end-of-turn ids given
};

// Aligns the fields on input_ids' grid. Throws InputError (naming the field's line and column)
// when there is no input_ids, or a field's values cannot be ids (fractions, negative ids).
DoctorBatch align_pasted_batch(const PastedBatch& pasted, bool encoder);

// Fills the pad map, pad side and packed boundaries from the aligned fields and the hints.
void derive_layout(DoctorBatch& batch, const DoctorLayoutHints& hints);

// The runs of the pad id at each row's ends, whatever the attention mask says: (leading,
// trailing) per row. A row with runs at both ends keeps the side most rows use; with pad == an
// end id, the first cell of a trailing run is the row's real end token, not a pad.
// Example: rows [5,6,2,2], [7,2,2,2], pad 2 == eos 2 -> (0,1), (0,2).
std::vector<std::pair<int, int>> pad_id_runs(const DoctorBatch& batch, int pad, const std::vector<int>& end_ids);

// Why label (b, t) is -100 (None when it is trained), as the grid shows it: a pad, the start of a
// packed example, a prompt token (completion_mask / assistant_masks 0), a real token whose id is
// the pad id (masked by value), or the batch's own choice.
IgnoreReason ignore_reason(const DoctorBatch& batch, int b, int t, std::optional<int> pad_token_id);

// "[2, 8]", or "[3 … 3, 8]" for a dimension PyTorch elided around "...".
std::string describe_dims(const std::vector<PastedDim>& dims);

}  // namespace masklab
