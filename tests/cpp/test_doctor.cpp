// test_doctor.cpp — the batch doctor's checks (doctor_check_*.cpp), one small batch each, worked
// out by hand: the finding each must make, where, and the near miss it must leave alone; which
// checks are skipped for want of what; and the batches it cannot read at all.
// Batches are written as JSON or as PyTorch prints them; ids are small so positions read at a glance.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "doctor.hpp"
#include "fixtures.hpp"
#include "printed_batch.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

// What the batch cannot say: pad, eos and end-of-turn ids, encoder, prompt/completion data.
struct Options {
  std::optional<int> pad, eos, eot;
  bool encoder = false, prompt_completion = false;
  Options() = default;
  Options(std::optional<int> pad_id, std::optional<int> eos_id = std::nullopt, std::optional<int> eot_id = std::nullopt)
      : pad(pad_id), eos(eos_id), eot(eot_id) {}
  Options& as_encoder() {
    encoder = true;
    return *this;
  }
  Options& prompt_completion_data() {
    prompt_completion = true;
    return *this;
  }
};

DoctorReport doctor(const std::string& text, Options o = {}) {
  DoctorOptions options;
  options.pad_token_id = o.pad;
  options.eos_token_id = o.eos;
  options.end_of_turn_id = o.eot;
  options.encoder = o.encoder;
  options.prompt_completion = o.prompt_completion;
  return diagnose(parse_printed_batch(text), options);
}

const Finding* find(const DoctorReport& r, const std::string& id) {
  for (const auto& f : r.findings)
    if (f.id == id) return &f;
  return nullptr;
}

std::vector<std::string> ids_of(const DoctorReport& r) {
  std::vector<std::string> ids;
  for (const auto& f : r.findings) ids.push_back(f.id);
  return ids;
}

using Cells = std::vector<std::pair<int, int>>;

std::string needs(const DoctorReport& r, const std::string& check) {
  for (const auto& s : r.checks_skipped)
    if (s.id == check) return s.needs;
  return "";
}

bool ran(const DoctorReport& r, const std::string& check) {
  for (const auto& c : r.checks_run)
    if (c == check) return true;
  return false;
}

}  // namespace

TEST_SUITE("doctor: padding and labels") {
  TEST_CASE("labels copied from input_ids: every pad is a target (pad-trained)") {
    // pad 0; row 1 has two pads at t=2,3, both labelled 0.
    const DoctorReport r = doctor(
        R"({"input_ids": [[5, 6, 7, 8], [5, 6, 0, 0]], "attention_mask": [[1, 1, 1, 1], [1, 1, 0, 0]],
            "labels": [[5, 6, 7, 8], [5, 6, 0, 0]]})",
        {0, 8});
    const Finding* f = find(r, "pad-trained");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Error);
    CHECK(f->rows == std::vector<int>{1});
    CHECK(f->positions == Cells{{1, 2}, {1, 3}});
    CHECK(contains(f->message, "2 pad positions in row 1 have a label other than -100"));
    CHECK(contains(f->message, "a copy of input_ids"));
    // 6 targets after the shift, 2 of them pads: each real token keeps 4/6 of its weight.
    CHECK(contains(f->message, "2 of the 6 scored targets are pads"));
    CHECK(contains(f->message, "66.7%"));
    CHECK(f->exercise == "pad-to-max-all-ones");
    CHECK(find(r, "label-pad-value") == nullptr);
  }

  TEST_CASE("labels padded with 0 after the prompt was masked: the cause is the pad value (label-pad-value)") {
    const DoctorReport r = doctor(
        R"({"input_ids": [[5, 6, 7, 9], [5, 6, 9, 1]], "attention_mask": [[1, 1, 1, 1], [1, 1, 1, 0]],
            "labels": [[-100, 6, 7, 9], [-100, 6, 9, 0]]})",
        {1, 9});
    const Finding* f = find(r, "label-pad-value");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{1, 3}});
    CHECK(contains(f->message, "padded with 0 instead of -100"));
    CHECK(contains(f->message, "0 is a real token id"));
    CHECK(find(r, "pad-trained") == nullptr);
  }

  TEST_CASE("labels padded with -1: cross_entropy fails on any negative target but -100") {
    const DoctorReport r = doctor(R"({"input_ids": [[5, 6], [5, 0]], "attention_mask": [[1, 1], [1, 0]],
                                      "labels": [[5, 6], [5, -1]]})",
                                  {0});
    const Finding* f = find(r, "label-pad-value");
    REQUIRE(f != nullptr);
    CHECK(contains(f->message, "padded with -1"));
    CHECK(contains(f->message, "Target -1 is out of bounds"));
  }

  TEST_CASE("pads labelled -100 are fine, whatever their ids") {
    const DoctorReport r = doctor(R"({"input_ids": [[5, 6, 7], [5, 6, 0]], "attention_mask": [[1, 1, 1], [1, 1, 0]],
                                      "labels": [[5, 6, 7], [5, 6, -100]]})",
                                  {0});
    CHECK(ids_of(r).empty());
    CHECK(ran(r, "pad-labels"));
  }

  TEST_CASE("pad == eos masked by value: the real EOS after trained text loses its label (eos-masked)") {
    // DataCollatorForLanguageModeling: labels = ids with every 2 set to -100.
    const DoctorReport r = doctor(
        R"({"input_ids": [[5, 6, 2], [7, 2, 2]], "attention_mask": [[1, 1, 1], [1, 1, 0]],
            "labels": [[5, 6, -100], [7, -100, -100]]})",
        {2, 2});
    const Finding* f = find(r, "eos-masked");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{0, 2}, {1, 1}});
    CHECK(contains(f->message, "2 real end tokens (id 2) in rows 0 and 1 are labelled -100"));
    CHECK(contains(f->message, "pad == eos (id 2)"));
    CHECK(f->exercise == "pad-eos-mask-by-id");
  }

  TEST_CASE("an end-of-turn token of a masked user turn is not a masked EOS") {
    // eot = 9 ends the user turn (labels -100 there, as the prompt) and the assistant turn (trained).
    const DoctorReport r = doctor(R"({"input_ids": [[3, 5, 9, 4, 6, 9]], "labels": [[-100, -100, -100, -100, 6, 9]]})",
                                  Options(std::nullopt, std::nullopt, 9));
    CHECK(find(r, "eos-masked") == nullptr);
    CHECK(ran(r, "eos-masked"));
  }

  TEST_CASE("the assistant's end-of-turn token left out of the target is found by its id") {
    const DoctorReport r = doctor(R"({"input_ids": [[3, 5, 9, 4, 6, 9]], "labels": [[-100, -100, -100, -100, 6, -100]]})",
                                  Options(std::nullopt, std::nullopt, 9));
    const Finding* f = find(r, "eos-masked");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{0, 5}});
  }

  TEST_CASE("a pad id that is an ordinary token, masked by value wherever it occurs (pad-id-masked)") {
  // Llama 3 with pad_token_id = 0, which is "!" there: DataCollatorForLanguageModeling sets every
  // label equal to 0 to -100, the real "!" at t=2 included; the pad at t=5 is fine.
  const std::string text = R"({"input_ids": [[9906, 1917, 0, 1268, 128001, 0]], "attention_mask": [[1, 1, 1, 1, 1, 0]],
                               "labels": [[9906, 1917, -100, 1268, 128001, -100]]})";
  DoctorReport r = doctor(text, {0, 128001});
  const Finding* f = find(r, "pad-id-masked");
  REQUIRE(f != nullptr);
  CHECK(f->positions == Cells{{0, 2}});
  CHECK(contains(f->message, "1 real token with the pad id 0 in row 0 is labelled -100 amid trained text"));
  CHECK(f->exercise == "pad-token-id-zero");
  // When the pad is the EOS, eos-masked says it; this check steps aside.
  r = doctor(text, {0, 0});
  CHECK(find(r, "pad-id-masked") == nullptr);
  CHECK(needs(r, "pad-id-masked") == "a pad id that is not the eos or end-of-turn id (eos-masked covers that)");
}

TEST_CASE("labels shifted by hand: labels[t] == input_ids[t + 1] (pre-shifted)") {
    const DoctorReport r = doctor(R"({"input_ids": [[1, 5, 6, 7, 8, 2]], "labels": [[5, 6, 7, 8, 2, -100]]})", {0, 2});
    const Finding* f = find(r, "pre-shifted");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}});
    CHECK(contains(f->message, "at 5 of 5 trained positions"));
    CHECK(f->exercise == "double-shift");
    CHECK(find(r, "eos-masked") == nullptr);  // the EOS moved one place left; pre-shifted says why
  }

  TEST_CASE("repeated tokens are not a shift: labels equal to the ids are fine") {
    const DoctorReport r = doctor(R"({"input_ids": [[1, 5, 5, 5, 5, 2]], "labels": [[1, 5, 5, 5, 5, 2]]})", {0, 2});
    CHECK(find(r, "pre-shifted") == nullptr);
  }

  TEST_CASE("too few pairs to tell: three matches are not proof") {
    const DoctorReport r = doctor(R"({"input_ids": [[1, 5, 6, 2]], "labels": [[5, 6, 2, -100]]})", {0, 2});
    CHECK(find(r, "pre-shifted") == nullptr);
  }

  TEST_CASE("labels one shorter than input_ids: a shape finding that asks about a shift") {
    const DoctorReport r = doctor("{\"input_ids\": [1, 5, 6, 2], \"labels\": [5, 6, 2]}\n"
                                  "{\"input_ids\": [1, 7, 2], \"labels\": [7, 2]}");
    const Finding* f = find(r, "shapes");
    REQUIRE(f != nullptr);
    CHECK(f->rows == std::vector<int>{0, 1});
    CHECK(contains(f->message, "labels has 3 positions in row 0 but input_ids has 4 (2 rows differ)"));
    CHECK(contains(f->message, "were the labels shifted already?"));
    CHECK(f->exercise == "double-shift");
    CHECK(needs(r, "pre-shifted") == "labels in the batch");  // the misaligned labels are not read
  }
}

TEST_SUITE("doctor: attention_mask") {
  TEST_CASE("sequence ids 1..k of packed examples (axolotl) are a warning; they also mark the packing") {
    const DoctorReport r =
        doctor(R"({"input_ids": [[1, 5, 2, 1, 6, 2, 0]], "attention_mask": [[1, 1, 1, 2, 2, 2, 0]]})", {0, 2});
    const Finding* f = find(r, "mask-values");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Warning);
    CHECK(f->positions == Cells{{0, 3}});
    CHECK(contains(f->message, "attention_mask holds 2: sequence ids"));
    CHECK(r.batch.packed);
    CHECK(r.batch.packing_source == "attention_mask (sequence ids)");
  }

  TEST_CASE("an additive float mask is read backwards: an error") {
    const DoctorReport r =
        doctor("{'input_ids': tensor([[5, 6, 0]]), 'attention_mask': tensor([[0., 0., -inf]])}", {0});
    const Finding* f = find(r, "mask-values");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Error);
    CHECK(contains(f->message, "holds -inf besides 0: an additive float mask"));
    // The mask still tells where the pad is, read as it was meant: position 2.
    CHECK(r.batch.is_pad == std::vector<std::uint8_t>{0, 0, 1});
  }

  TEST_CASE("a mask rebuilt as input_ids != pad with pad == eos hides the real EOS") {
    // Real EOS at t=2 (mask 0 inside the row), pads at t=5,6.
    const DoctorReport r = doctor(R"({"input_ids": [[1, 5, 2, 6, 7, 2, 2]], "attention_mask": [[1, 1, 0, 1, 1, 0, 0]]})",
                                  {2, 2});
    const Finding* f = find(r, "mask-mismatch");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{0, 2}});
    CHECK(contains(f->message, "the mask was rebuilt as input_ids != pad_token_id"));
    CHECK(f->exercise == "pad-eos-mask-by-id");
  }

  TEST_CASE("a 0 on a token that is not the pad id, and a 1 on some of a row's pads") {
    DoctorReport r = doctor(R"({"input_ids": [[5, 6, 7, 9]], "attention_mask": [[1, 1, 1, 0]]})", {0});
    const Finding* f = find(r, "mask-mismatch");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{0, 3}});
    CHECK(contains(f->message, "whose token is not the pad id 0"));
    r = doctor(R"({"input_ids": [[5, 6, 0, 0], [5, 6, 7, 8]], "attention_mask": [[1, 1, 1, 0], [1, 1, 1, 1]]})", {0});
    f = find(r, "mask-mismatch");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Warning);
    CHECK(f->positions == Cells{{0, 2}});
  }

  TEST_CASE("an all-ones mask over right padding in a decoder: a warning, real tokens cannot see the pads") {
    const DoctorReport r = doctor(R"({"input_ids": [[5, 6, 7], [5, 0, 0]], "attention_mask": [[1, 1, 1], [1, 1, 1]],
                                      "labels": [[5, 6, 7], [5, -100, -100]]})",
                                  {0});
    const Finding* f = find(r, "all-ones-mask");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Warning);
    CHECK(f->positions == Cells{{1, 1}, {1, 2}});
    CHECK(f->exercise == "right-padded-decoder-overclaim");
    // Padding came from the pad id, since the mask says nothing: so the pads' labels are read too.
    CHECK(r.batch.pad_source == PadSource::PadId);
    CHECK(find(r, "pad-trained") == nullptr);
  }

  TEST_CASE("an all-ones mask over left padding, or in an encoder: an error") {
    DoctorReport r = doctor(R"({"input_ids": [[0, 0, 5], [5, 6, 7]], "attention_mask": [[1, 1, 1], [1, 1, 1]]})", {0});
    REQUIRE(find(r, "all-ones-mask") != nullptr);
    CHECK(find(r, "all-ones-mask")->severity == Severity::Error);
    CHECK(find(r, "all-ones-mask")->exercise == "left-padding-everywhere");
    r = doctor(R"({"input_ids": [[101, 7, 102, 0]], "attention_mask": [[1, 1, 1, 1]]})", Options(0, 102).as_encoder());
    REQUIRE(find(r, "all-ones-mask") != nullptr);
    CHECK(find(r, "all-ones-mask")->exercise == "encoder-all-ones-mask");
  }
}

TEST_SUITE("doctor: targets") {
  TEST_CASE("a row whose only label sits at t = 0 has no target after the shift, but one without it") {
    const std::string text = R"({"input_ids": [[5, 6, 7], [5, 6, 7]], "labels": [[5, 6, 7], [5, -100, -100]]})";
    DoctorReport r = doctor(text);
    const Finding* f = find(r, "zero-target-rows");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Warning);
    CHECK(f->rows == std::vector<int>{1});
    CHECK(contains(f->message, "under the mean of row means its 0/0 makes the batch loss NaN"));
    CHECK(f->exercise == "zero-target-micro-batch");
    r = doctor(text, Options().as_encoder());  // an encoder scores label 0 itself
    CHECK(find(r, "zero-target-rows") == nullptr);
  }

  TEST_CASE("no row with a target: an error, the token mean is 0/0") {
    const DoctorReport r = doctor(R"({"input_ids": [[5, 6]], "labels": [[-100, -100]]})");
    REQUIRE(find(r, "zero-target-rows") != nullptr);
    CHECK(find(r, "zero-target-rows")->severity == Severity::Error);
    CHECK(r.figures.targets == 0);
    CHECK_FALSE(r.figures.loss.has_value());
  }

  TEST_CASE("a full row that ends without EOS while the others end with one (truncated-rows)") {
    const DoctorReport r = doctor(R"({"input_ids": [[1, 5, 6, 7], [1, 8, 2, 0]], "attention_mask": [[1, 1, 1, 1], [1, 1, 1, 0]],
                                      "labels": [[1, 5, 6, 7], [1, 8, 2, -100]]})",
                                  {0, 2});
    const Finding* f = find(r, "truncated-rows");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{0, 3}});
    CHECK(contains(f->message, "row 0 fills the whole batch width and ends without an end token"));
  }

  TEST_CASE("no row ends with an end token at all") {
    const DoctorReport r = doctor(R"({"input_ids": [[1, 5, 6], [1, 8, 0]], "attention_mask": [[1, 1, 1], [1, 1, 0]],
                                      "labels": [[1, 5, 6], [1, 8, -100]]})",
                                  {0, 2});
    const Finding* f = find(r, "truncated-rows");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{0, 2}, {1, 1}});
    CHECK(contains(f->message, "No row ends with an end token (id 2)"));
  }

  TEST_CASE("prompt tokens trained although completion_mask marks them (prompt-trained, error)") {
    const DoctorReport r = doctor(R"({"input_ids": [[3, 4, 5, 2]], "labels": [[3, 4, 5, 2]], "completion_mask": [[0, 0, 1, 1]]})",
                                  {0, 2});
    const Finding* f = find(r, "prompt-trained");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Error);
    CHECK(f->positions == Cells{{0, 0}, {0, 1}});
    CHECK(contains(f->message, "2 prompt tokens (completion_mask 0) in row 0 have a label"));
  }

  TEST_CASE("prompt/completion data whose every real token is trained (prompt-trained, warning)") {
    const std::string text = R"({"input_ids": [[3, 4, 5, 2], [3, 5, 2, 0]], "attention_mask": [[1, 1, 1, 1], [1, 1, 1, 0]],
                                 "labels": [[3, 4, 5, 2], [-100, -100, 2, -100]]})";
    DoctorReport r = doctor(text, Options(0, 2).prompt_completion_data());
    const Finding* f = find(r, "prompt-trained");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Warning);
    CHECK(f->rows == std::vector<int>{0});
    r = doctor(text, {0, 2});
    CHECK(needs(r, "prompt-trained") == "completion_mask or assistant_masks in the batch, or prompt/completion data");
  }
}

TEST_SUITE("doctor: layout") {
  TEST_CASE("left padding in a training batch: where the real tokens start, with and without position_ids") {
    DoctorReport r = doctor(R"({"input_ids": [[0, 0, 5, 6], [5, 6, 7, 8]], "attention_mask": [[0, 0, 1, 1], [1, 1, 1, 1]],
                                "labels": [[-100, -100, 5, 6], [5, 6, 7, 8]]})",
                            {0});
    const Finding* f = find(r, "left-padding");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Info);
    CHECK(f->positions == Cells{{0, 0}, {0, 1}});
    CHECK(contains(f->message, "row 0's first real token sits at position 2"));
    r = doctor(R"({"input_ids": [[0, 0, 5, 6]], "attention_mask": [[0, 0, 1, 1]], "labels": [[-100, -100, 5, 6]],
                   "position_ids": [[1, 1, 0, 1]]})",
               {0});
    REQUIRE(find(r, "left-padding") != nullptr);
    CHECK(contains(find(r, "left-padding")->message, "as generate() derives them, so positions are right"));
  }

  TEST_CASE("what each check needs when the batch and options do not say") {
    const DoctorReport r = doctor(R"({"input_ids": [[5, 6, 7]], "labels": [[5, 6, 7]]})");
    CHECK(needs(r, "pad-labels") == "attention_mask in the batch, or pad_token_id");
    CHECK(needs(r, "eos-masked") == "eos_token_id or end_of_turn_id");
    CHECK(needs(r, "mask-values") == "attention_mask in the batch");
    CHECK(needs(r, "right-padded-generation") == "a batch without labels (a generation batch)");
    CHECK(ran(r, "shapes"));
    CHECK(ran(r, "pre-shifted"));
    CHECK(r.checks_run.size() + r.checks_skipped.size() == 17u);
  }

  TEST_CASE("a finding lists at most 256 positions; its message has the full count") {
    std::string ids = "[5", mask = "[1";
    for (int t = 1; t < 301; ++t) {
      ids += t < 2 ? ", 6" : ", 0";
      mask += t < 2 ? ", 1" : ", 0";
    }
    const DoctorReport r = doctor("{\"input_ids\": [" + ids + "]], \"attention_mask\": [" + mask + "]], \"labels\": [" +
                                      ids + "]]}",
                                  {0});
    const Finding* f = find(r, "pad-trained");
    REQUIRE(f != nullptr);
    CHECK(f->positions.size() == 256u);
    CHECK(contains(f->message, "299 pad positions in row 0"));
  }

  TEST_CASE("what PyTorch elided is said, with Python indices from the end") {
    const DoctorReport r = doctor(
        "{'input_ids': tensor([[1, 5, 6,  ..., 7, 8, 2],\n        ...,\n        [1, 5, 6,  ..., 7, 8, 2]])}");
    const Finding* f = find(r, "elided");
    REQUIRE(f != nullptr);
    CHECK(contains(f->message, "in place of rows 1 to -2 and positions 3 to -4"));
    CHECK(r.batch.row_index == std::vector<int>{0, -1});
    CHECK(r.batch.position_index == std::vector<int>{0, 1, 2, -3, -2, -1});
  }
}

TEST_SUITE("doctor: packed rows") {
  TEST_CASE("position_ids that jump inside an example, and a start that is not 0") {
    const DoctorReport r = doctor(R"({"input_ids": [[1, 5, 6, 1, 7, 8]], "labels": [[-100, 5, 6, -100, 7, 8]],
                                      "seq_idx": [[0, 0, 0, 1, 1, 1]], "position_ids": [[0, 1, 3, 5, 6, 7]]})");
    std::vector<std::string> messages;
    for (const auto& x : r.findings)
      if (x.id == "packed-positions") messages.push_back(x.message);
    REQUIRE(messages.size() == 2u);
    CHECK(contains(messages[0], "do not restart at 0 at 1 packed example start in row 0"));
    CHECK(contains(messages[1], "jump inside a packed example at 1 position"));
  }

  TEST_CASE("packed lengths with no position_ids: a warning") {
    const DoctorReport r = doctor(R"({"input_ids": [[1, 5, 1, 6, 7]], "seq_lens": [2, 3]})");
    const Finding* f = find(r, "packed-positions");
    REQUIRE(f != nullptr);
    CHECK(f->severity == Severity::Warning);
    CHECK(f->positions == Cells{{0, 2}});
  }

  TEST_CASE("boundary labels trained: the message says whether the first tokens differ") {
    const DoctorReport r = doctor(R"({"input_ids": [[9, 5, 7, 6]], "labels": [[9, 5, 7, 6]], "position_ids": [[0, 1, 0, 1]]})");
    const Finding* f = find(r, "packed-boundary-labels");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{0, 2}});
    CHECK(contains(f->message, "every one of them is id 7") == false);
    CHECK(contains(f->message, "Every one of them is id 7"));
  }

  TEST_CASE("documents joined by EOS with nothing marking them, and the end-of-turn id that stands it down") {
    const std::string text = R"({"input_ids": [[1, 5, 2, 1, 6, 2]], "attention_mask": [[1, 1, 1, 1, 1, 1]],
                                 "labels": [[1, 5, 2, 1, 6, 2]]})";
    DoctorReport r = doctor(text, {0, 2});
    const Finding* f = find(r, "packed-without-boundaries");
    REQUIRE(f != nullptr);
    CHECK(f->positions == Cells{{0, 2}});
    r = doctor(text, {0, 2, 2});
    CHECK(find(r, "packed-without-boundaries") == nullptr);
  }
}

TEST_SUITE("doctor: batches it cannot check") {
  TEST_CASE("no input_ids, ids that are not ids, a 3-D input_ids") {
    InputError e = input_error([] { doctor(R"({"labels": [[1, 2]]})"); }, "accepted a batch without input_ids");
    CHECK(e.field == "text");
    CHECK(e.message == "line 1, column 1: the batch has no input_ids (its fields: labels); the doctor needs at least input_ids");
    e = input_error([] { doctor("{\n  'input_ids': tensor([[5, 6.5000]])}"); }, "accepted a fractional id");
    CHECK(contains(e.message, "line 2, column 16: input_ids [0][1] is 6.500000; token ids are whole numbers >= 0"));
    e = input_error([] { doctor(R"({"input_ids": [[[1]]]})"); }, "accepted 3-D input_ids");
    CHECK(contains(e.message, "input_ids has 3 dimensions [1, 1, 1]"));
    e = input_error([] { doctor(R"({"input_ids": []})"); }, "accepted an empty batch");
    CHECK(contains(e.message, "input_ids is empty"));
  }
}
