// doctor_check_labels.cpp — checks of what the labels train (docs/semantics.md §10.3):
//   pad-labels        pads with a label other than -100 (findings pad-trained or label-pad-value)
//   eos-masked        real end tokens labelled -100 right after trained text
//   pre-shifted       labels[t] == input_ids[t + 1] on most trained positions (the double shift)
//   prompt-trained    prompt (or non-assistant) tokens trained in prompt/completion data
//   zero-target-rows  rows the loss scores nothing in
//   truncated-rows    full rows that do not end with an end token while others do
#include <algorithm>
#include <string>
#include <tuple>

#include "batch.hpp"
#include "decimal.hpp"
#include "doctor_checks.hpp"

namespace masklab {

namespace {

// "45.5%" and "0.6789": figures quoted in messages are rounded; the figures keep every digit.
// (decimal.hpp rather than snprintf: printf's machinery would add ~10 KB to the doctor module.)
std::string fixed(double x, int decimals) { return decimal::print_f(x, decimals); }
std::string percent(double share) { return fixed(share * 100, 1) + "%"; }

// The token-mean figures the pad findings quote: targets at pads, the dilution factor.
std::string dilution_text(const DoctorFigures& f) {
  if (!f.targets || !f.pad_targets || *f.pad_targets == 0 || !f.dilution_factor) return "";
  std::string s = " After the shift " + std::to_string(*f.pad_targets) + " of the " + std::to_string(*f.targets) +
                  " scored targets are pads, so each real token's weight in the mean shrinks to " +
                  percent(*f.dilution_factor) + " of what it should be";
  if (f.loss && f.loss->without_pad_targets)
    s += " and the tiny bigram model's reported loss drops from " + fixed(*f.loss->without_pad_targets, 4) +
         " to " + fixed(f.loss->reported, 4);
  return s + ".";
}

}  // namespace

std::string needs_labels_and_pads(const CheckContext& c) {
  if (!c.token_labels()) return c.labels_need();
  if (!c.has_pad_map()) return "attention_mask in the batch, or pad_token_id";
  return "";
}

void check_pad_labels(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  const auto& labels = *d.labels;
  FindingCells cells(d);
  int pad_cells = 0;
  bool constant = true;
  int value = kIgnoreIndex;
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t) {
      const int i = d.at(b, t);
      if (!d.is_pad[i]) continue;
      ++pad_cells;
      if (labels[i] == kIgnoreIndex) {
        constant = false;
        continue;
      }
      if (cells.count() == 0) value = labels[i];
      else if (labels[i] != value) constant = false;
      cells.add(b, t);
    }
  if (cells.empty()) return;
  constant = constant && cells.count() == pad_cells;
  // Labels that are a verbatim copy of input_ids on the real tokens: the collator copied them.
  bool copied = true;
  for (int b = 0; b < d.B && copied; ++b)
    for (int t = 0; t < d.length[b]; ++t)
      if (!d.is_pad[d.at(b, t)] && labels[d.at(b, t)] != d.input_ids[d.at(b, t)]) copied = false;
  const std::optional<int> pad = c.options.pad_token_id;
  const std::string where = count_of(cells.count(), "pad position", "pad positions") + " in " + cells.rows_text();

  if (constant && (value < 0 || !copied)) {
    std::string message;
    if (value < 0) {
      message = "The labels are padded with " + std::to_string(value) + " instead of -100 (" + where +
                "). PyTorch's cross_entropy skips only ignore_index (-100); any other negative target fails "
                "(\"Target " + std::to_string(value) + " is out of bounds\", a device-side assert on CUDA).";
    } else {
      message = "The labels are padded with " + std::to_string(value) + " instead of -100 (" + where +
                "), so every pad is a trained target \"predict token " + std::to_string(value) + "\"" +
                (pad && value == *pad ? " — label_pad_token_id set to the pad id (LLaMA-Factory does this when "
                                        "ignore_pad_token_for_loss is off)"
                                      : value == 0 ? " — 0 is a real token id, not \"ignore\"" : "") +
                "." + dilution_text(c.figures);
    }
    out.push_back(cells.finding("label-pad-value", Severity::Error, std::move(message),
                                "Pad labels with -100 (label_pad_token_id=-100, the default of "
                                "DataCollatorForSeq2Seq).",
                                exercise_ids::kPadsScored));
    return;
  }
  std::string message = where + " have a label other than -100, so the loss scores them." +
                        (copied ? " The labels are a copy of input_ids, pads included (labels = input_ids.clone())."
                                : "") +
                        dilution_text(c.figures);
  if (pad && c.is_end(*pad))
    message += " (With pad == eos the first pad's label does teach EOS after the last real token; the rest only "
               "teach pad after pad.)";
  out.push_back(cells.finding("pad-trained", Severity::Error, std::move(message),
                              "Set the label of every pad position to -100, by position (from the lengths, as "
                              "DataCollatorForSeq2Seq and TRL's collator do), never by token id.",
                              exercise_ids::kPadsScored));
}

std::string needs_labels_and_end_ids(const CheckContext& c) {
  if (!c.decoder()) return "a decoder-only model";
  if (!c.token_labels()) return c.labels_need();
  if (c.end_ids.empty()) return "eos_token_id or end_of_turn_id";
  return "";
}

void check_eos_masked(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  const auto& labels = *d.labels;
  FindingCells cells(d);
  std::vector<int> ids;
  for (int b = 0; b < d.B; ++b)
    for (int t = 1; t < d.length[b]; ++t) {
      const int i = d.at(b, t);
      if (!d.real(b, t) || !c.is_end(d.input_ids[i]) || is_trained_label(labels[i])) continue;
      if (!d.adjacent(b, t - 1) || !d.real(b, t - 1) || !is_trained_label(labels[d.at(b, t - 1)])) continue;
      // Pre-shifted labels put the end token one position early: pre-shifted says that.
      if (labels[d.at(b, t - 1)] == d.input_ids[i]) continue;
      cells.add(b, t);
      if (std::find(ids.begin(), ids.end(), d.input_ids[i]) == ids.end()) ids.push_back(d.input_ids[i]);
    }
  if (cells.empty()) return;
  std::string message = count_of(cells.count(), "real end token", "real end tokens") + " (id " + list_text(ids) +
                        ") in " + cells.rows_text() +
                        (cells.count() == 1 ? " is" : " are") +
                        " labelled -100 right after trained text, so the model is never taught to stop there.";
  const std::optional<int> pad = c.options.pad_token_id;
  if (pad && c.is_end(*pad))
    message += " pad == eos (id " + std::to_string(*pad) +
               "): a collator that masks labels by value (transformers' DataCollatorForLanguageModeling, TRL up to "
               "0.16.0) removes every real EOS along with the pads.";
  out.push_back(cells.finding("eos-masked", Severity::Error, std::move(message),
                              "Mask labels by position (DataCollatorForSeq2Seq, TRL >= 0.16.1, or labels[attention_mask "
                              "== 0] = -100), or give the tokenizer a pad token of its own.",
                              exercise_ids::kPadEos));
}

std::string needs_labels_and_pad_id(const CheckContext& c) {
  if (!c.token_labels()) return c.labels_need();
  if (!c.options.pad_token_id) return "pad_token_id";
  if (c.is_end(*c.options.pad_token_id)) return "a pad id that is not the eos or end-of-turn id (eos-masked covers that)";
  return "";
}

void check_pad_id_masked(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  const int pad = *c.options.pad_token_id;
  const auto& labels = *d.labels;
  FindingCells cells(d);
  int real_with_pad_id = 0;
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t < d.length[b]; ++t) {
      const int i = d.at(b, t);
      if (!d.real(b, t) || d.input_ids[i] != pad) continue;
      ++real_with_pad_id;
      // Masked although the tokens around it are trained: by value, not as a prompt.
      const bool trained_before = t > 0 && d.adjacent(b, t - 1) && d.real(b, t - 1) && is_trained_label(labels[d.at(b, t - 1)]);
      if (!is_trained_label(labels[i]) && trained_before) cells.add(b, t);
    }
  if (cells.empty()) return;
  out.push_back(cells.finding(
      "pad-id-masked", Severity::Error,
      count_of(cells.count(), "real token", "real tokens") + " with the pad id " + std::to_string(pad) + " in " +
          cells.rows_text() + (cells.count() == 1 ? " is" : " are") +
          " labelled -100 amid trained text: the pad id is an ordinary token of this vocabulary, and labels were "
          "masked by value (transformers' DataCollatorForLanguageModeling sets every label equal to pad_token_id "
          "to -100), so that token is never trained.",
      "Use a pad token the text never contains (a reserved special token, or a new one with resized embeddings), "
      "and mask labels by position.",
      exercise_ids::kPadIdCollides));
}

std::string needs_decoder_labels(const CheckContext& c) {
  if (!c.decoder()) return "a decoder-only model";
  if (!c.token_labels()) return c.labels_need();
  return "";
}

void check_pre_shifted(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  const auto& labels = *d.labels;
  FindingCells cells(d);
  int pairs = 0, next = 0, same = 0;
  for (int b = 0; b < d.B; ++b)
    for (int t = 0; t + 1 < d.length[b]; ++t) {
      const int i = d.at(b, t);
      if (!d.real(b, t) || !is_trained_label(labels[i]) || !d.adjacent(b, t) || !d.real(b, t + 1)) continue;
      ++pairs;
      if (labels[i] == d.input_ids[i]) ++same;
      if (labels[i] == d.input_ids[d.at(b, t + 1)]) {
        ++next;
        cells.add(b, t);
      }
    }
  // Real text repeats tokens, so a handful of matches proves nothing: most pairs must match the
  // next token and few the token itself.
  if (pairs < 4 || next * 5 < pairs * 4 || same * 2 > pairs) return;
  out.push_back(cells.finding(
      "pre-shifted", Severity::Error,
      "labels[t] equals input_ids[t + 1] at " + std::to_string(next) + " of " + std::to_string(pairs) +
          " trained positions (" + cells.rows_text() +
          "): the labels are already shifted. The model's loss shifts them again (logit t is scored against "
          "labels[t + 1]), so it learns to predict the token after next.",
      "Pass labels aligned with input_ids (a copy, with -100 where not trained); the loss shifts them itself.",
      exercise_ids::kDoubleShift));
}

std::string needs_prompt_info(const CheckContext& c) {
  if (!c.token_labels()) return c.labels_need();
  if (!c.batch.completion_mask && !c.batch.assistant_masks && !c.options.prompt_completion)
    return "completion_mask or assistant_masks in the batch, or prompt/completion data";
  return "";
}

void check_prompt_trained(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  const auto& labels = *d.labels;
  bool reported = false;
  for (const auto& [mask, what, field] :
       {std::tuple{&d.completion_mask, "prompt token", "completion_mask"},
        std::tuple{&d.assistant_masks, "non-assistant token", "assistant_masks"}}) {
    if (!*mask) continue;
    FindingCells cells(d);
    for (int b = 0; b < d.B; ++b)
      for (int t = 0; t < d.length[b]; ++t) {
        const int i = d.at(b, t);
        if (d.real(b, t) && (**mask)[i] == 0 && is_trained_label(labels[i])) cells.add(b, t);
      }
    reported = true;
    if (cells.empty()) continue;
    out.push_back(cells.finding(
        "prompt-trained", Severity::Error,
        count_of(cells.count(), what, std::string(what) + "s") + " (" + field + " 0) in " + cells.rows_text() +
            (cells.count() == 1 ? " has" : " have") + " a label: " + field +
            " was never applied to the labels, so the model is trained to write the prompt too.",
        std::string("Set labels[") + field + " == 0] = -100 (TRL's collator does this), before padding.",
        exercise_ids::kCompletionOnly));
  }
  if (reported) return;
  // Prompt/completion data with nothing to mark the prompt: rows where every real token is trained.
  FindingCells cells(d);
  for (int b = 0; b < d.B; ++b) {
    bool all_trained = false;
    for (int t = 1; t < d.length[b]; ++t) {
      if (!d.real(b, t)) continue;
      if (!is_trained_label(labels[d.at(b, t)])) {
        all_trained = false;
        break;
      }
      all_trained = true;
    }
    if (all_trained) cells.add_row(b);
  }
  if (cells.empty()) return;
  out.push_back(cells.finding(
      "prompt-trained", Severity::Warning,
      "Every real token of " + cells.rows_text() +
          " is trained, but the data is prompt/completion: the prompt is trained as well, so the loss is spent on "
          "text the model will always be given.",
      "Set the prompt's labels to -100 (TRL's completion_only_loss, on by default for prompt-completion datasets).",
      exercise_ids::kCompletionOnly));
}

std::string needs_whole_rows_of_labels(const CheckContext& c) {
  if (!c.token_labels() && !c.batch.labels_elsewhere) return "token labels in the batch";
  if (c.batch.position_gap >= 0) return "whole rows (PyTorch elided positions; print with torch.set_printoptions(profile='full'))";
  return "";
}

void check_zero_target_rows(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  FindingCells cells(d);
  if (d.labels_elsewhere) {
    for (int b = 0; b < d.B; ++b) {
      bool any = false;
      for (int t = 0; t < d.target_length[b]; ++t) any = any || is_trained_label(d.targets_grid[b * d.target_T + t]);
      if (!any) cells.add_row(b);
    }
  } else {
    for (int b = 0; b < d.B; ++b)
      if (c.figures.per_row[b].targets.value_or(0) == 0) cells.add_row(b);
  }
  if (cells.empty()) return;
  const bool all = static_cast<int>(cells.rows().size()) == d.B;
  std::string message =
      all ? std::string("No row has a scored target: a token-mean loss is 0/0 — NaN in PyTorch (since 1.11) — with "
                        "zero gradients, the mean of row means is NaN too, and a sum is 0.")
          : cells.rows_text() + (cells.rows().size() == 1 ? " has" : " have") +
                " no scored target (every label -100" + (c.decoder() ? " after the shift" : "") +
                "). Under the token mean such a row adds nothing and the mean divides by the other rows' targets; "
                "under the mean of row means its 0/0 makes the batch loss NaN; under a sum it adds 0. A micro-batch "
                "of only such rows has a NaN token-mean loss.";
  out.push_back(cells.finding("zero-target-rows", all ? Severity::Error : Severity::Warning, std::move(message),
                              "Find why (an answer cut by truncation, a response template not found) and drop or fix "
                              "those examples before batching.",
                              exercise_ids::kZeroTargets));
}

std::string needs_truncation(const CheckContext& c) {
  if (!c.decoder()) return "a decoder-only model";
  if (!c.token_labels()) return c.labels_need();
  if (c.end_ids.empty()) return "eos_token_id or end_of_turn_id";
  if (c.batch.packed) return "unpacked rows";
  if (!c.has_pad_map()) return "attention_mask in the batch, or pad_token_id";
  return "";
}

void check_truncated_rows(const CheckContext& c, std::vector<Finding>& out) {
  const DoctorBatch& d = c.batch;
  FindingCells open(d);  // rows that fill the batch and end without an end token
  int rows_with_text = 0, ending = 0;
  int longest = 0;
  for (int b = 0; b < d.B; ++b) longest = std::max(longest, d.length[b] - d.pads_left[b] - d.pads_right[b]);
  for (int b = 0; b < d.B; ++b) {
    const int last = d.length[b] - d.pads_right[b] - 1;
    if (last < d.pads_left[b]) continue;
    // The row's last real token lies in what PyTorch elided: nothing to say about it.
    if (d.position_gap >= 0 && d.pads_right[b] > 0 && last < d.position_gap) continue;
    ++rows_with_text;
    const bool ends = c.is_end(d.input_ids[d.at(b, last)]);
    if (ends) ++ending;
    const bool full = d.pads_right[b] == 0 && d.pads_left[b] == 0 &&
                      (d.position_gap >= 0 || last + 1 == longest);
    if (!ends && full) open.add(b, last);
  }
  if (rows_with_text == 0) return;
  if (ending == 0) {
    FindingCells all(d);
    for (int b = 0; b < d.B; ++b)
      if (d.length[b] - d.pads_right[b] - 1 >= d.pads_left[b]) all.add(b, d.length[b] - d.pads_right[b] - 1);
    out.push_back(all.finding(
        "truncated-rows", Severity::Warning,
        "No row ends with an end token (id " + list_text(c.end_ids) +
            "): either every example was cut at max_length, or EOS is never appended (LLaMA tokenizers add none by "
            "default), so the model never learns to stop.",
        "Append EOS to every example (after truncation), and check max_length against your longest examples.",
        exercise_ids::kTruncation));
    return;
  }
  if (open.empty()) return;
  const bool one = open.rows().size() == 1;
  out.push_back(open.finding(
      "truncated-rows", Severity::Warning,
      open.rows_text() + (d.ragged ? (one ? " is the longest example and ends" : " are the longest examples and end")
                                   : (one ? " fills the whole batch width and ends" : " fill the whole batch width and end")) +
          " without an end token while other rows end with one: cut at max_length. The model is trained on an "
          "answer that stops mid-way, and if the cut took the whole answer the row has nothing to learn.",
      "Filter examples longer than max_length, or raise it; if you must cut, cut the prompt "
      "(truncation_side='left'), and re-append EOS.",
      exercise_ids::kTruncation));
}

}  // namespace masklab
