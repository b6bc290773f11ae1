// doctor_batch.cpp — see doctor_batch.hpp. Two steps: align the pasted fields on input_ids' grid
// (refusing only values that cannot be ids at all), then derive the layout: padding from the
// attention mask (or from runs of the pad id at the row ends) and packed-example boundaries.
#include "doctor_batch.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "decimal.hpp"
#include "input_error.hpp"

namespace masklab {

const char* pad_side_name(PadSide s) {
  switch (s) {
    case PadSide::None: return "none";
    case PadSide::Right: return "right";
    case PadSide::Left: return "left";
    case PadSide::Mixed: return "mixed";
    case PadSide::Unknown: return "unknown";
  }
  return "unknown";
}

std::string describe_dims(const std::vector<PastedDim>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    const PastedDim& d = dims[i];
    s += d.elided ? std::to_string(d.head) + " … " + std::to_string(d.visible - d.head) : std::to_string(d.visible);
  }
  return s + "]";
}

namespace {

// Fields laid out like input_ids, one value per token.
constexpr std::string_view kTokenFields[] = {"attention_mask", "labels",          "position_ids",
                                             "completion_mask", "assistant_masks", "seq_idx"};
// 1-D fields that give packed examples' lengths: DataCollatorWithFlattening's flash-attention
// kwargs (cumulative, starting at 0) and lists of lengths.
constexpr std::string_view kCumulativeFields[] = {"cu_seq_lens_q", "cu_seq_lens_k", "cu_seq_lens", "cu_seqlens"};
constexpr std::string_view kLengthFields[] = {"seq_lens", "seq_lengths"};

template <size_t N>
bool one_of(std::string_view name, const std::string_view (&names)[N]) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

[[noreturn]] void refuse(const PastedField& f, const std::string& what) {
  throw InputError("text", "line " + std::to_string(f.line) + ", column " + std::to_string(f.column) + ": " +
                               f.name + " " + what);
}

// A field's layout as rows of positions: rank 1 is one row.
struct Geometry {
  PastedDim rows, positions;
  std::vector<int> lengths;  // [rows] cells per row
};

Geometry geometry_of(const PastedField& f) {
  Geometry g;
  if (f.rank() == 1) {
    g.rows = PastedDim{1, false, 0};
    g.positions = f.dims[0];
  } else {
    g.rows = f.dims[0];
    g.positions = f.dims[1];
  }
  if (f.ragged()) g.lengths = f.row_lengths;
  else g.lengths.assign(static_cast<size_t>(g.rows.visible), g.positions.visible);
  return g;
}

bool same_dim(const PastedDim& a, const PastedDim& b) {
  return a.visible == b.visible && a.elided == b.elided && (!a.elided || a.head == b.head);
}

// The printed index of visible item i of a dimension: 0, 1, 2 before "...", then -3, -2, -1.
int printed_index(const PastedDim& d, int i) { return d.elided && i >= d.head ? i - d.visible : i; }

std::string cell_name(const DoctorBatch& d, int b, int t) {
  return "[" + std::to_string(d.row_index[b]) + "][" + std::to_string(d.position_index[t]) + "]";
}

// Copies field f (same geometry as the grid) into a [B,T] buffer, checking every value with
// `accept` (which names what is wrong, or returns nullptr when the value is fine).
template <class Accept>
std::vector<int> fill_grid(const DoctorBatch& d, const PastedField& f, int absent, Accept accept) {
  std::vector<int> out(static_cast<size_t>(d.B) * d.T, absent);
  size_t i = 0;
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t, ++i) {
      const double x = f.values[i];
      // print_f(x, 6) is std::to_string(x) ("%f") without printf in the wasm module (decimal.hpp)
      if (const char* problem = accept(x))
        refuse(f, cell_name(d, b, t) + " is " + (std::isnan(x) ? std::string("nan") : decimal::print_f(x, 6)) + "; " + problem);
      out[d.at(b, t)] = static_cast<int>(x);
    }
  return out;
}

bool whole(double x) { return std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 2147483648.0; }

// Lambdas rather than functions, so fill_grid inlines the check instead of calling through a
// pointer once per cell.
constexpr auto id_problem = [](double x) -> const char* {
  return whole(x) && x >= 0 ? nullptr : "token ids are whole numbers >= 0";
};
constexpr auto int_problem = [](double x) -> const char* { return whole(x) ? nullptr : "expected whole numbers"; };

MaskKind classify_mask(const std::vector<double>& values) {
  bool binary = true, ids = true, additive = true, negative = false;
  for (double x : values) {
    if (x != 0 && x != 1) binary = false;
    if (!(whole(x) && x >= 0)) ids = false;
    if (!(x == 0 || x <= -1e4)) additive = false;
    if (x < 0) negative = true;
  }
  if (binary) return MaskKind::Binary;
  if (ids) return MaskKind::SequenceIds;
  if (additive && negative) return MaskKind::Additive;
  return MaskKind::Other;
}

void read_attention_mask(DoctorBatch& d, const PastedField& f) {
  d.mask_kind = classify_mask(f.values);
  std::vector<int> mask(static_cast<size_t>(d.B) * d.T, 0);
  if (d.mask_kind == MaskKind::SequenceIds) d.mask_ids = fill_grid(d, f, 0, int_problem);
  size_t i = 0;
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t, ++i) {
      const double x = f.values[i];
      // An additive mask means "attend" where it is 0; every other kind where it is nonzero.
      mask[d.at(b, t)] = d.mask_kind == MaskKind::Additive ? (x == 0 ? 1 : 0) : (x != 0 ? 1 : 0);
      if (x == 0 || x == 1) continue;
      bool known = false;
      for (double seen : d.mask_odd_values) known = known || seen == x || (std::isnan(seen) && std::isnan(x));
      if (!known && d.mask_odd_values.size() < 8) {
        d.mask_odd_values.push_back(x);
        d.mask_odd_cells.push_back(d.at(b, t));
      }
    }
  d.attention_mask = std::move(mask);
}

// cu_seq_lens_* ([0, n1, n1+n2, ...]) or seq_lens ([n1, n2, ...]) -> example starts in the token stream.
void read_packed_lengths(DoctorBatch& d, const PastedField& f, bool cumulative) {
  if (f.rank() != 1 || f.dims[0].elided) {
    d.unread.push_back(f.name);
    return;
  }
  std::vector<long long> starts;
  long long total = 0;
  for (size_t i = 0; i < f.values.size(); ++i) {
    const double x = f.values[i];
    if (!whole(x) || x < 0) refuse(f, "[" + std::to_string(i) + "] is not a whole number >= 0");
    const long long v = static_cast<long long>(x);
    if (cumulative) {
      if (i == 0 && v != 0) refuse(f, "starts at " + std::to_string(v) + "; cumulative lengths start at 0");
      if (v < total) refuse(f, "[" + std::to_string(i) + "] is smaller than the one before; cumulative lengths never decrease");
      if (i > 0 && i + 1 < f.values.size()) starts.push_back(v);
      total = v;
    } else {
      if (i > 0) starts.push_back(total);
      total += v;
    }
  }
  d.lengths_field = f.name;
  d.lengths_starts = std::move(starts);
  d.lengths_total = total;
}

}  // namespace

DoctorBatch align_pasted_batch(const PastedBatch& pasted, bool encoder) {
  const PastedField* ids = pasted.find("input_ids");
  if (!ids) {
    std::string names;
    for (const auto& f : pasted.fields) names += (names.empty() ? "" : ", ") + f.name;
    throw InputError("text", "line 1, column 1: the batch has no input_ids" +
                                 (names.empty() ? std::string() : " (its fields: " + names + ")") +
                                 "; the doctor needs at least input_ids");
  }
  if (ids->rank() != 1 && ids->rank() != 2)
    refuse(*ids, "has " + std::to_string(ids->rank()) + " dimensions " + describe_dims(ids->dims) +
                     "; expected [rows, positions] or one row");

  DoctorBatch d;
  const Geometry g = geometry_of(*ids);
  d.B = g.rows.visible;
  d.T = g.positions.visible;
  d.length = g.lengths;
  d.ragged = ids->ragged();
  if (d.B == 0 || d.T == 0) refuse(*ids, "is empty; there is nothing to check");
  for (int b = 0; b < d.B; ++b) d.row_index.push_back(printed_index(g.rows, b));
  for (int t = 0; t < d.T; ++t) d.position_index.push_back(printed_index(g.positions, t));
  if (g.rows.elided) d.row_gap = g.rows.head;
  if (g.positions.elided) d.position_gap = g.positions.head;
  d.input_ids = fill_grid(d, *ids, 0, id_problem);

  for (const auto& f : pasted.fields) {
    if (&f == ids) continue;
    const std::string& name = f.name;
    if (one_of(name, kCumulativeFields) || one_of(name, kLengthFields)) {
      if (d.lengths_field.empty()) read_packed_lengths(d, f, one_of(name, kCumulativeFields));
      else d.unread.push_back(name);  // cu_seq_lens_k repeats cu_seq_lens_q
      continue;
    }
    if (!one_of(name, kTokenFields)) {
      d.unread.push_back(name);
      continue;
    }
    const bool is_labels = name == "labels";
    d.labels_pasted = d.labels_pasted || is_labels;
    // One label per row: sequence classification. Not token labels, nothing to align.
    if (is_labels && f.rank() == 1 && ids->rank() == 2 && f.dims[0].visible == d.B && !f.dims[0].elided) {
      d.row_labels = std::vector<int>();
      for (size_t i = 0; i < f.values.size(); ++i) {
        if (!whole(f.values[i])) refuse(f, "[" + std::to_string(i) + "] is not a whole number");
        d.row_labels->push_back(static_cast<int>(f.values[i]));
      }
      continue;
    }
    if (f.rank() != 1 && f.rank() != 2) {
      d.unread.push_back(name);
      d.shape_problems.push_back({name, name + " has " + std::to_string(f.rank()) + " dimensions " +
                                            describe_dims(f.dims) + "; the doctor reads [rows, positions] fields only",
                                  {}, false});
      continue;
    }
    const Geometry fg = geometry_of(f);
    const bool same = same_dim(fg.rows, g.rows) && same_dim(fg.positions, g.positions) && fg.lengths == g.lengths;
    if (!same) {
      // Encoder-decoder labels are the decoder's targets, with their own length.
      if (is_labels && encoder && same_dim(fg.rows, g.rows) && !fg.positions.elided) {
        d.labels_elsewhere = true;
        d.target_T = fg.positions.visible;
        d.target_length = fg.lengths;
        d.targets_grid.assign(static_cast<size_t>(d.B) * d.target_T, -100);
        size_t i = 0;
        for (int b = 0; b < d.B; ++b)
          for (int t = 0; t < fg.lengths[b]; ++t, ++i) {
            if (!whole(f.values[i])) refuse(f, "[" + std::to_string(b) + "][" + std::to_string(t) + "] is not a whole number");
            d.targets_grid[static_cast<size_t>(b) * d.target_T + t] = static_cast<int>(f.values[i]);
          }
        continue;
      }
      ShapeProblem p{name, "", {}, false};
      if (!same_dim(fg.rows, g.rows)) {
        p.message = name + " has shape " + describe_dims(f.dims) + " but input_ids has " + describe_dims(ids->dims);
      } else {
        bool all_one_shorter = true;
        for (int b = 0; b < d.B; ++b)
          if (fg.lengths[b] != g.lengths[b]) {
            p.rows.push_back(b);
            all_one_shorter = all_one_shorter && fg.lengths[b] + 1 == g.lengths[b];
          }
        if (p.rows.empty()) {  // same lengths, different elision: PyTorch summarised them differently
          p.message = name + " is printed as " + describe_dims(f.dims) + " but input_ids as " + describe_dims(ids->dims) +
                      ", so their true shapes differ";
        } else {
          p.one_shorter = all_one_shorter;
          const int b = p.rows.front();
          p.message = name + " has " + std::to_string(fg.lengths[b]) + " positions in row " +
                      std::to_string(d.row_index[b]) + " but input_ids has " + std::to_string(g.lengths[b]);
          if (p.rows.size() > 1) p.message += " (" + std::to_string(p.rows.size()) + " rows differ)";
        }
      }
      d.shape_problems.push_back(std::move(p));
      continue;
    }
    if (name == "attention_mask") {
      read_attention_mask(d, f);
    } else if (is_labels) {
      d.labels = fill_grid(d, f, -100, int_problem);
    } else if (name == "position_ids") {
      d.position_ids = fill_grid(d, f, 0, int_problem);
    } else if (name == "seq_idx") {
      d.seq_idx = fill_grid(d, f, 0, int_problem);
    } else {
      std::vector<int> grid = fill_grid(d, f, 0, int_problem);
      for (int& v : grid) v = v != 0 ? 1 : 0;
      (name == "completion_mask" ? d.completion_mask : d.assistant_masks) = std::move(grid);
    }
  }
  for (const auto& s : pasted.skipped) d.unread.push_back(s);
  return d;
}

namespace {

// Leading and trailing runs of cells for which `pad(t)` holds, within row b's cells.
template <class IsPad>
std::pair<int, int> edge_runs(int n, IsPad pad) {
  int left = 0;
  while (left < n && pad(left)) ++left;
  if (left == n) return {n, 0};
  int right = 0;
  while (right < n - left && pad(n - 1 - right)) ++right;
  return {left, right};
}

}  // namespace

std::vector<std::pair<int, int>> pad_id_runs(const DoctorBatch& d, int pad, const std::vector<int>& end_ids) {
  std::vector<std::pair<int, int>> runs(d.B);
  int left_rows = 0, right_rows = 0;
  for (int b = 0; b < d.B; ++b) {
    runs[b] = edge_runs(d.length[b], [&](int t) { return d.input_ids[d.at(b, t)] == pad; });
    if (runs[b].first > 0 && runs[b].second == 0 && runs[b].first < d.length[b]) ++left_rows;
    if (runs[b].second > 0 && runs[b].first == 0) ++right_rows;
  }
  const bool pad_is_end = std::find(end_ids.begin(), end_ids.end(), pad) != end_ids.end();
  for (int b = 0; b < d.B; ++b) {
    auto& [left, right] = runs[b];
    if (left > 0 && right > 0) {  // a run at both ends: keep the side most rows use
      if (left_rows > right_rows) right = 0;
      else left = 0;
    }
    // With pad == eos, a row's real end token looks like its first pad — unless the run reaches
    // back into what PyTorch elided, where the real end token is hidden.
    const bool run_hidden_start = d.position_gap >= 0 && d.length[b] - right <= d.position_gap;
    if (pad_is_end && right > 0 && left == 0 && !run_hidden_start) --right;
  }
  return runs;
}

IgnoreReason ignore_reason(const DoctorBatch& d, int b, int t, std::optional<int> pad_token_id) {
  const int i = d.at(b, t);
  if (!d.labels || is_trained_label((*d.labels)[i])) return IgnoreReason::None;
  if (d.is_pad[i]) return IgnoreReason::Padding;
  if (d.segment_start[i]) return IgnoreReason::Boundary;
  if ((d.completion_mask && (*d.completion_mask)[i] == 0) || (d.assistant_masks && (*d.assistant_masks)[i] == 0))
    return IgnoreReason::Prompt;
  if (pad_token_id && d.input_ids[i] == *pad_token_id) return IgnoreReason::PadId;
  return IgnoreReason::Given;
}

namespace {

void find_packed_starts(DoctorBatch& d) {
  d.segment_start.assign(static_cast<size_t>(d.B) * d.T, 0);
  auto mark = [&](int b, int t) {
    if (t > 0 && d.real(b, t)) {
      d.segment_start[d.at(b, t)] = 1;
      d.packed = true;
    }
  };
  long long tokens = 0;
  for (int n : d.length) tokens += n;
  if (!d.lengths_field.empty() && !d.elided() && d.lengths_total == tokens) {
    // The lengths count tokens of the rows laid end to end.
    std::vector<long long> row_start(d.B, 0);
    for (int b = 1; b < d.B; ++b) row_start[b] = row_start[b - 1] + d.length[b - 1];
    for (long long s : d.lengths_starts) {
      int b = static_cast<int>(std::upper_bound(row_start.begin(), row_start.end(), s) - row_start.begin()) - 1;
      if (b >= 0) mark(b, static_cast<int>(s - row_start[b]));
    }
    d.packed = true;  // even a single packed example: the kernel gets its lengths
    d.packing_source = d.lengths_field;
    return;
  }
  auto from_changes = [&](const std::vector<int>& ids, const char* source, bool skip_zero) {
    for (int b = 0; b < d.B; ++b)
      for (int t = 1; t < d.length[b]; ++t) {
        const int a = ids[d.at(b, t - 1)], c = ids[d.at(b, t)];
        if (t == d.position_gap || (skip_zero && (a == 0 || c == 0))) continue;
        if (a != c) mark(b, t);
      }
    if (d.packed) d.packing_source = source;
  };
  if (d.seq_idx) from_changes(*d.seq_idx, "seq_idx", false);
  if (!d.packed && d.mask_ids) from_changes(*d.mask_ids, "attention_mask (sequence ids)", true);
  if (!d.packed && d.position_ids) {
    for (int b = 0; b < d.B; ++b)
      for (int t = 1; t < d.length[b]; ++t)
        if (t != d.position_gap && (*d.position_ids)[d.at(b, t)] == 0 && d.real(b, t - 1)) mark(b, t);
    if (d.packed) d.packing_source = "position_ids";
  }
}

}  // namespace

void derive_layout(DoctorBatch& d, const DoctorLayoutHints& hints) {
  const size_t cells = static_cast<size_t>(d.B) * d.T;
  d.is_pad.assign(cells, 0);
  d.pads_left.assign(d.B, 0);
  d.pads_right.assign(d.B, 0);
  // An all-ones mask says nothing about padding; runs of the pad id at the row ends then do.
  bool mask_says_nothing = false;
  if (d.attention_mask && hints.pad_token_id) {
    bool all_ones = true;
    for (int b = 0; b < d.B && all_ones; ++b)
      for (int t = 0; t < d.length[b]; ++t) all_ones = all_ones && (*d.attention_mask)[d.at(b, t)] == 1;
    if (all_ones)
      for (const auto& [left, right] : pad_id_runs(d, *hints.pad_token_id, hints.end_ids))
        mask_says_nothing = mask_says_nothing || left > 0 || right > 0;
  }
  if (d.attention_mask && !mask_says_nothing) {
    d.pad_source = PadSource::AttentionMask;
    const auto& mask = *d.attention_mask;
    for (int b = 0; b < d.B; ++b) {
      auto [left, right] = edge_runs(d.length[b], [&](int t) { return mask[d.at(b, t)] == 0; });
      d.pads_left[b] = left;
      d.pads_right[b] = right;
    }
  } else if (hints.pad_token_id) {
    d.pad_source = PadSource::PadId;
    const auto runs = pad_id_runs(d, *hints.pad_token_id, hints.end_ids);
    const bool pad_is_end =
        std::find(hints.end_ids.begin(), hints.end_ids.end(), *hints.pad_token_id) != hints.end_ids.end();
    for (int b = 0; b < d.B; ++b) {
      d.pads_left[b] = runs[b].first;
      d.pads_right[b] = runs[b].second;
      if (pad_is_end && runs[b].first == 0 && d.length[b] > runs[b].second &&
          d.input_ids[d.at(b, d.length[b] - runs[b].second - 1)] == *hints.pad_token_id)
        d.assumed_end_token = true;
    }
  } else if (d.ragged) {
    d.pad_source = PadSource::Unpadded;  // rows of their own lengths: nothing is padding
  } else {
    d.pad_source = PadSource::None;
    d.pad_side = PadSide::Unknown;
    find_packed_starts(d);
    return;
  }
  bool any_left = false, any_right = false;
  for (int b = 0; b < d.B; ++b) {
    const int n = d.length[b];
    for (int t = 0; t < d.pads_left[b]; ++t) d.is_pad[d.at(b, t)] = 1;
    for (int t = n - d.pads_right[b]; t < n; ++t) d.is_pad[d.at(b, t)] = 1;
    // A row that is all padding counts for neither side.
    if (d.pads_left[b] > 0 && d.pads_left[b] < n) any_left = true;
    if (d.pads_right[b] > 0) any_right = true;
  }
  d.pad_side = any_left && any_right ? PadSide::Mixed : any_left ? PadSide::Left : any_right ? PadSide::Right : PadSide::None;
  find_packed_starts(d);
}

}  // namespace masklab
