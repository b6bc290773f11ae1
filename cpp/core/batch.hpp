// batch.hpp — the vocabulary of collation: what goes in (features + options) and what comes
// out (a rectangular batch whose every -100 label carries its reason).
//
// Shapes use fixed letters project-wide: B rows, T positions, V vocabulary, D head dim.
// All [B,T] buffers are row-major: element (b, t) lives at b * T + t.
// This file only declares types; the rules live in padding.cpp, attention_mask.cpp,
// labels.cpp, positions.cpp, packing.cpp and collate.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace masklab {

constexpr int kIgnoreIndex = -100;  // PyTorch's default ignore_index

// One example as a dataset step hands it to the collator (Hugging Face field names).
struct Feature {
  std::vector<int> input_ids;                     // [n] token ids; may be empty (padded like any row)
  std::optional<std::vector<int>> labels;         // [n] own labels, -100 = not trained; under
                                                  // LabelPolicy::Given any length (seq2seq targets)
  std::optional<std::vector<int>> attention_mask;   // [n] the tokenizer's own mask, kept by FromLengths
  std::optional<std::vector<int>> completion_mask;  // [n] 1 = completion (trained), 0 = prompt
  std::optional<std::vector<int>> assistant_masks;  // [n] 1 = assistant token, 0 = other roles
  std::optional<std::vector<int>> seq_lengths;      // already packed: lengths of the documents inside
                                                    // (read by Packing::PaddingFree only)
};

enum class Padding { Longest, MaxLength, DoNotPad };
enum class Side { Right, Left };

// How the attention mask is built. FromLengths is what tokenizer.pad returns (docs/semantics.md §2.3).
enum class AttentionMaskPolicy {
  FromLengths,   // the example's own mask (or 1) on real tokens, 0 on pads — correct
  AllOnes,       // every position 1 — the seed bug
  InputIdsNePad  // input_ids != pad_token_id — zeroes real EOS when pad == eos
};

// How labels are built before padding.
enum class LabelPolicy {
  MaskPadding,  // by position: own labels (or a copy of input_ids), pads = label_pad_token_id
                // (DataCollatorForSeq2Seq, TRL >= 0.16.1)
  InputIds,     // labels = padded input_ids — pads are trained (the bug)
  MaskPadId,    // -100 wherever the id equals pad_token_id, own labels overwritten
                // (transformers DataCollatorForLanguageModeling(mlm=False))
  Given         // the features' own labels, padded on their own to the longest label
                // (DataCollatorForSeq2Seq; labels required, any length)
};

enum class Packing {
  None,
  Flatten,      // DataCollatorWithFlattening: one row, positions restart, boundary label -100,
                // no attention mask, no padding
  ConcatUnsafe, // one row, all-ones mask, positions not reset, boundary label kept (bug)
  PaddingFree,  // TRL DataCollatorForLanguageModeling(padding_free=True), >= 0.24: positions
                // restart at every document (seq_lengths), labels[position == 0] = -100, no
                // attention mask, tail padded to pad_to_multiple_of with (pad id, -100, position 0)
  PaddingFreeLegacy  // the same collator in TRL 0.20-0.23, before PR #4170: boundary labels kept,
                     // and without seq_lengths an attention mask (1 on tokens, 0 on tail pads)
};

enum class PositionPolicy {
  Arange,   // 0..T-1 per row: a training forward's default
  FromMask  // attention_mask.cumsum(-1) - 1, masked positions set to 1: what generate() does
};

struct CollateOptions {
  std::optional<int> pad_token_id;  // needed only where a pad is written (docs/semantics.md §2.5)
  std::optional<int> eos_token_id;
  std::optional<int> vocab_size;
  Padding padding = Padding::Longest;
  std::optional<int> max_length;
  std::optional<int> pad_to_multiple_of;
  Side padding_side = Side::Right;
  bool truncation = false;
  Side truncation_side = Side::Right;
  AttentionMaskPolicy attention_mask_policy = AttentionMaskPolicy::FromLengths;
  LabelPolicy label_policy = LabelPolicy::MaskPadding;
  int label_pad_token_id = kIgnoreIndex;  // any integer; a negative one is never a target
  Packing packing = Packing::None;
  PositionPolicy position_ids = PositionPolicy::Arange;
  bool shift = true;  // whether the loss will shift (only changes which labels count as targets)
};

// Why a label is -100 (or, for None, that it is trained).
enum class IgnoreReason : std::uint8_t {
  None,      // trained
  Padding,   // a pad position
  Prompt,    // completion_mask / assistant_masks is 0 here
  PadId,     // a real token whose id equals pad_token_id, masked by value (mask_pad_id)
  Boundary,  // first token of a packed example: never predicted from the previous one
  Given,     // the example's own labels already said -100
  User       // toggled off by hand in the grid
};
const char* reason_name(IgnoreReason r);  // "", "padding", "prompt", "pad_id", "boundary", "given", "user"

struct Batch {
  int B = 0, T = 0;
  int L = 0;                                 // label positions per row: T, unless seq2seq labels
                                             // have their own length (docs/semantics.md §3.2)
  std::vector<int> input_ids;                // [B,T]
  bool has_attention_mask = true;            // false for Flatten and PaddingFree (no mask at all)
  std::vector<int> attention_mask;           // [B,T] 1 = may be attended to
  std::vector<int> labels;                   // [B,L] negative = not trained (-100 = ignore_index)
  std::vector<IgnoreReason> label_reasons;   // [B,L] why each untrained label is there
  std::vector<std::uint8_t> label_is_pad;    // [B,L] 1 where the label position is label padding
  std::vector<int> position_ids;             // [B,T]
  std::vector<int> segment_ids;              // [B,T] packed rows: which example a position is from
  std::vector<std::uint8_t> is_pad;          // [B,T] 1 where the position is padding (by length)
  std::vector<int> lengths;                  // [B] real tokens per row
  std::vector<int> seq_lengths;              // packed: length of each packed document
  std::vector<int> truncated_tokens;         // [B] tokens cut by truncation (packed: summed)

  int at(int b, int t) const { return b * T + t; }

  int at_label(int b, int t) const { return b * L + t; }

  // Room for every [B,T] and [B,L] buffer, so filling them never reallocates (B, T, L set first).
  void reserve_cells() {
    const size_t n = static_cast<size_t>(B) * static_cast<size_t>(T);
    const size_t nl = static_cast<size_t>(B) * static_cast<size_t>(L);
    for (auto* v : {&input_ids, &attention_mask, &position_ids, &segment_ids}) v->reserve(n);
    is_pad.reserve(n);
    labels.reserve(nl);
    label_reasons.reserve(nl);
    label_is_pad.reserve(nl);
  }
};

// Whether a label is a trained target: a class id. Every negative label (-100, or a
// label_pad_token_id such as -1) is ignored — PyTorch refuses one that is not its ignore_index.
inline bool is_trained_label(int label) { return label >= 0; }

}  // namespace masklab
