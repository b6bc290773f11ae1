// test_printed_batch.cpp — reading pasted batches (printed_batch.cpp): every form PyTorch and
// transformers print, JSON and JSONL, and the refusals — each naming a line and column — for
// malformed, cut-off and hostile text. Inputs are small enough to check by eye; the shapes and
// values expected are read off the text itself.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "api.hpp"
#include "fixtures.hpp"
#include "json.hpp"
#include "printed_batch.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

// The InputError a text raises: field "text", message "line L, column C: …".
InputError refusal(const std::string& text) {
  return input_error([&] { parse_printed_batch(text); }, "accepted text it should have refused: " + text.substr(0, 80));
}

std::string values(const PastedField& f) {
  std::string s;
  for (double x : f.values) s += (s.empty() ? "" : " ") + std::to_string(static_cast<long long>(x));
  return s;
}

// A 2-D value elided the way PyTorch and numpy elide by default (edgeitems 3): in both
// dimensions the first 3 and last 3 items are visible, with the gap after the third.
void check_three_and_three(const PastedField& f) {
  REQUIRE(f.rank() == 2);
  for (int d = 0; d < 2; ++d) {
    CAPTURE(d);
    CHECK(f.dims[d].visible == 6);
    CHECK(f.dims[d].elided);
    CHECK(f.dims[d].head == 3);
  }
  CHECK(f.values.size() == 36u);
}

}  // namespace

TEST_SUITE("printed batch: what print(batch) prints") {
  TEST_CASE("a dict of tensors with device suffixes and wrapped rows") {
    // What print() shows for a collator's dict moved to the GPU: the tensor repr's own line breaks
    // and 8-space indents inside one dict line.
    const PastedBatch p = parse_printed_batch(
        "{'input_ids': tensor([[ 128000,   9906,     11, 128001],\n"
        "        [ 128000,   2028, 128001, 128001]], device='cuda:0'), 'attention_mask': tensor([[1, 1, 1, 1],\n"
        "        [1, 1, 1, 0]], device='cuda:0')}");
    CHECK(p.form == PastedForm::PrintedDict);
    REQUIRE(p.fields.size() == 2u);
    const PastedField& ids = p.fields[0];
    CHECK(ids.name == "input_ids");
    CHECK(ids.is_tensor);
    CHECK(ids.device == "cuda:0");
    REQUIRE(ids.rank() == 2);
    CHECK(ids.dims[0].visible == 2);
    CHECK(ids.dims[1].visible == 4);
    CHECK_FALSE(ids.dims[1].elided);
    CHECK(values(ids) == "128000 9906 11 128001 128000 2028 128001 128001");
    CHECK(ids.line == 1);
    CHECK(ids.column == 15);  // where tensor( starts
    CHECK(values(*p.find("attention_mask")) == "1 1 1 1 1 1 1 0");
    CHECK(p.find("attention_mask")->line == 2);
  }

  TEST_CASE("a row longer than the line is wrapped onto an indented continuation line") {
    // 12 ids of width 5 at indent 8: floor(72 / 7) = 10 per line, then 2 on the next.
    const PastedBatch p = parse_printed_batch(
        "{'input_ids': tensor([[    1, 12968, 29901, 15043,    13,  7900, 22137, 29901,  6324,   727,\n"
        "         29991,     2]])}");
    CHECK(p.fields[0].dims[1].visible == 12);
    CHECK(p.fields[0].values.back() == 2);
  }

  TEST_CASE("PyTorch's '...' in both dimensions: the visible items and where the gap is") {
    const PastedBatch p = parse_printed_batch(
        "{'input_ids': tensor([[    1,   887,   526,  ...,     2,     2,     2],\n"
        "        [    1,  1724,   338,  ...,     2,     2,     2],\n"
        "        [    1,   450,  4996,  ...,  1619, 29889,     2],\n"
        "        ...,\n"
        "        [    1,  1128,   437,  ...,     2,     2,     2],\n"
        "        [    1,   319,  1139,  ...,   376,   263,     2],\n"
        "        [    1,  3374,   505,  ...,     2,     2,     2]])}");
    const PastedField& f = p.fields[0];
    check_three_and_three(f);
    CHECK(f.values[3 * 6 + 1] == 1128);  // first row after the row "..."
  }

  TEST_CASE("a 1-D tensor elided as PyTorch 2.x prints it: ' ...' is an element of its own") {
    const PastedBatch p = parse_printed_batch("{'position_ids': tensor([0, 1, 2,  ..., 7, 8, 9])}");
    const PastedField& f = p.fields[0];
    REQUIRE(f.rank() == 1);
    CHECK(f.dims[0].visible == 6);
    CHECK(f.dims[0].head == 3);
    CHECK(values(f) == "0 1 2 7 8 9");
  }

  TEST_CASE("dtype, size, requires_grad and grad_fn suffixes, also on a line of their own") {
    const PastedBatch p = parse_printed_batch(
        "{'cu_seq_lens_q': tensor([ 0,  4,  7, 12], dtype=torch.int32),\n"
        " 'mask': tensor([[1., 1., 0.]],\n"
        "       device='cuda:1', dtype=torch.float16, requires_grad=True),\n"
        " 'empty': tensor([], size=(2, 0), dtype=torch.int64),\n"
        " 'x': tensor([0.5000], grad_fn=<MulBackward0>)}");
    CHECK(p.find("cu_seq_lens_q")->dtype == "torch.int32");
    const PastedField& mask = *p.find("mask");
    CHECK(mask.floating);
    CHECK(mask.device == "cuda:1");
    CHECK(mask.dtype == "torch.float16");
    CHECK(values(mask) == "1 1 0");
    const PastedField& empty = *p.find("empty");
    REQUIRE(empty.rank() == 2);
    CHECK(empty.dims[0].visible == 2);
    CHECK(empty.dims[1].visible == 0);
    CHECK(p.find("x")->values[0] == 0.5);
  }

  TEST_CASE("bool tensors, floats in int mode, inf and nan") {
    const PastedBatch p = parse_printed_batch(
        "{'a': tensor([[ True,  True, False]]), 'b': tensor([[0., -inf, -3.4028e+38, nan]])}");
    CHECK(values(*p.find("a")) == "1 1 0");
    const PastedField& b = *p.find("b");
    CHECK(b.values[0] == 0);
    CHECK(std::isinf(b.values[1]));
    CHECK(b.values[1] < 0);
    CHECK(b.values[2] == doctest::Approx(-3.4028e38));
    CHECK(std::isnan(b.values[3]));
  }

  TEST_CASE("numpy arrays (return_tensors='np'): rows indented under 'array([', dtype and shape suffixes") {
    // np.array([[101, 7592, 102, 0], [101, 2088, 999, 102]]) prints its rows aligned after
    // "array([" (7 columns) and each value right-aligned to the widest (4 digits); int64 is the
    // default dtype on Linux, so no suffix. An int32 mask carries dtype=int32, here on a line of
    // its own under "array(", where numpy puts it when it would pass the line width (75).
    const PastedBatch p = parse_printed_batch(
        "{'input_ids': array([[ 101, 7592,  102,    0],\n"
        "       [ 101, 2088,  999,  102]]), 'attention_mask': array([[1, 1, 1, 0],\n"
        "       [1, 1, 1, 1]],\n"
        "      dtype=int32), 'special': array([[ True, False, False,  True]])}");
    CHECK(p.form == PastedForm::PrintedDict);
    REQUIRE(p.fields.size() == 3u);
    const PastedField& ids = p.fields[0];
    CHECK(ids.is_tensor);
    CHECK(ids.column == 15);  // where array( starts
    REQUIRE(ids.rank() == 2);
    CHECK(ids.dims[0].visible == 2);
    CHECK(ids.dims[1].visible == 4);
    CHECK(values(ids) == "101 7592 102 0 101 2088 999 102");
    CHECK(ids.dtype.empty());
    CHECK(values(*p.find("attention_mask")) == "1 1 1 0 1 1 1 1");
    CHECK(p.find("attention_mask")->dtype == "numpy.int32");
    CHECK(values(*p.find("special")) == "1 0 0 1");
  }

  TEST_CASE("numpy's '...' in both dimensions, as for np.arange(10000).reshape(10, 1000)") {
    // More than 1000 items: the first and last 3 of each dimension, "..." between (numpy's
    // threshold and edgeitems are PyTorch's).
    const PastedBatch p = parse_printed_batch(
        "{'input_ids': array([[   0,    1,    2, ...,  997,  998,  999],\n"
        "       [1000, 1001, 1002, ..., 1997, 1998, 1999],\n"
        "       [2000, 2001, 2002, ..., 2997, 2998, 2999],\n"
        "       ...,\n"
        "       [7000, 7001, 7002, ..., 7997, 7998, 7999],\n"
        "       [8000, 8001, 8002, ..., 8997, 8998, 8999],\n"
        "       [9000, 9001, 9002, ..., 9997, 9998, 9999]])}");
    const PastedField& f = p.fields[0];
    check_three_and_three(f);
    CHECK(f.values[3 * 6] == 7000);  // first row after the row "..."
    CHECK(f.values.back() == 9999);
  }

  TEST_CASE("an empty numpy array prints its shape; a quoted dtype; what numpy never prints is refused") {
    const PastedBatch p = parse_printed_batch("{'input_ids': array([], shape=(2, 0), dtype=int64), 'big': array([1, 2], dtype='>i4')}");
    REQUIRE(p.fields[0].rank() == 2);
    CHECK(p.fields[0].dims[0].visible == 2);
    CHECK(p.fields[0].dims[1].visible == 0);
    CHECK(p.fields[1].dtype == "numpy.>i4");
    CHECK(values(p.fields[1]) == "1 2");
    CHECK(refusal("{'input_ids': array([1, 2], order='C')}").message ==
          "line 1, column 29: array(...) argument 'order' is not one numpy prints for an array (dtype, shape)");
    CHECK(contains(refusal("{'input_ids': array([1, 2], device='cuda:0')}").message, "argument 'device' is not one numpy prints"));
    // np.array([[1, 2], [3]], dtype=object): numpy prints each row as list([...]).
    CHECK(refusal("{'input_ids': array([list([1, 2]), list([3])], dtype=object)}").message ==
          "line 1, column 22: a ragged numpy array (rows of different lengths print as list([...]) in an array of "
          "dtype=object); pad the rows first, or paste .tolist() of the field");
    CHECK(contains(refusal("{'input_ids': [1, 2, ..., 9]}").message, "it appears only inside tensor(...) or array(...)"));
  }

  TEST_CASE("BatchEncoding(...) and BatchFeature(data=...) wrappers around the dict") {
    for (const char* text : {"BatchEncoding({'input_ids': tensor([[5, 6]])})",
                             "BatchFeature(data={'input_ids': tensor([[5, 6]])})"}) {
      CAPTURE(text);
      const PastedBatch p = parse_printed_batch(text);
      CHECK(values(p.fields[0]) == "5 6");
    }
  }

  TEST_CASE("plain lists, ragged rows, scalars, strings and None, as a collator returns them before tensors") {
    const PastedBatch p = parse_printed_batch(
        "{'input_ids': [[1, 5, 6, 2], [1, 7, 2]], 'max_length_q': 4, 'text': 'hi, \\'you\\'', 'label': None}");
    CHECK(p.form == PastedForm::PrintedDict);
    const PastedField& ids = p.fields[0];
    REQUIRE(ids.ragged());
    CHECK(ids.row_lengths == std::vector<int>{4, 3});
    CHECK(ids.dims[1].visible == 4);
    CHECK(values(ids) == "1 5 6 2 1 7 2");
    CHECK(p.find("max_length_q")->rank() == 0);
    CHECK(p.skipped == std::vector<std::string>{"text", "label"});
  }
}

TEST_SUITE("printed batch: JSON and JSONL") {
  TEST_CASE("a JSON object of lists") {
    const PastedBatch p = parse_printed_batch("{\"input_ids\": [[5, 6, 2]], \"labels\": [[5, 6, 2]], \"x\": null}");
    CHECK(p.form == PastedForm::Json);
    CHECK(p.fields.size() == 2u);
    CHECK(p.skipped == std::vector<std::string>{"x"});
  }

  TEST_CASE("JSONL: one example per line becomes one row each, ragged when lengths differ") {
    const PastedBatch p = parse_printed_batch(
        "{\"input_ids\": [1, 5, 6, 2], \"labels\": [-100, 5, 6, 2]}\n"
        "\n"
        "{\"input_ids\": [1, 7, 2], \"labels\": [-100, 7, 2]}\n");
    CHECK(p.form == PastedForm::JsonLines);
    const PastedField& ids = *p.find("input_ids");
    REQUIRE(ids.rank() == 2);
    CHECK(ids.dims[0].visible == 2);
    CHECK(ids.row_lengths == std::vector<int>{4, 3});
    CHECK(values(*p.find("labels")) == "-100 5 6 2 -100 7 2");
  }

  TEST_CASE("JSONL lines of equal length make a rectangular field") {
    const PastedBatch p = parse_printed_batch("{\"input_ids\": [1, 2]}\n{\"input_ids\": [3, 4]}");
    CHECK_FALSE(p.find("input_ids")->ragged());
  }

  TEST_CASE("JSONL that disagrees between lines is refused at the line that differs") {
    InputError e = refusal("{\"input_ids\": [1, 2], \"labels\": [1, 2]}\n{\"input_ids\": [3]}");
    CHECK(e.field == "text");
    CHECK(e.message == "line 2, column 1: this line has no labels but the first line does");
    e = refusal("{\"input_ids\": [1, 2]}\n{\"input_ids\": [3], \"labels\": [3]}");
    CHECK(contains(e.message, "line 2, column 1: this line has labels but the first line does not"));
    e = refusal("{\"input_ids\": [1, 2]} {\"input_ids\": [3]}");
    CHECK(contains(e.message, "line 1, column 23: two objects on one line"));
    e = refusal("{\"input_ids\": [[1, 2]]}\n{\"input_ids\": [[3]]}");
    CHECK(contains(e.message, "each field is a list of numbers"));
  }
}

TEST_SUITE("printed batch: refusals name the line and column") {
  TEST_CASE("an empty paste, a Python prompt, a bare tensor, a bare numpy array, a bare list") {
    CHECK(refusal("").message == "line 1, column 1: the text is empty; paste what print(batch) printed, a JSON "
                                 "object, or one JSON object per line");
    CHECK(refusal("  \n ").message.rfind("line 2, column 2: the text is empty", 0) == 0);
    CHECK(contains(refusal(">>> print(batch)\n{}").message, "line 1, column 1: paste only what print(batch) printed"));
    CHECK(contains(refusal("tensor([[1, 2]])").message, "line 1, column 1: a tensor without its field name"));
    CHECK(refusal("array([[1, 2]])").message ==
          "line 1, column 1: an array without its field name; paste the whole dict that print(batch) printed "
          "({'input_ids': array(...), ...})");
    CHECK(contains(refusal("[[1, 2]]").message, "a bare list has no field names"));
  }

  TEST_CASE("a paste cut off in the middle says so and points at the list left open") {
    const InputError e = refusal("{'input_ids': tensor([[1, 2, 3],\n        [4, 5,");
    CHECK(e.message == "line 2, column 9: this list is never closed (is the paste cut off?)");
    CHECK(contains(refusal("{'input_ids': tensor([[1, 2]])").message, "expected ',' or '}'"));
    CHECK(contains(refusal("{'input_ids': tensor([[1, 2]])").message, "the text ends here"));
  }

  TEST_CASE("a ragged tensor, '...' outside a tensor, mixed nesting, a misplaced '...'") {
    CHECK(refusal("{'input_ids': tensor([[1, 2, 3],\n  [4, 5]])}").message ==
          "line 2, column 3: this list has 2 items but the first one at this depth has 3; a printed tensor is rectangular");
    CHECK(contains(refusal("{'input_ids': tensor([1, [2]])}").message, "mixes numbers and lists"));
    CHECK(contains(refusal("{'input_ids': tensor([..., 2])}").message, "'...' before the first item"));
    CHECK(contains(refusal("{'input_ids': tensor([1, ..., 2, ..., 3])}").message, "a second '...'"));
    CHECK(contains(refusal("{'input_ids': tensor([1, 2, ...])}").message, "must be followed by the last items"));
  }

  TEST_CASE("keys: duplicated, empty, unquoted, with escapes; values that are not read") {
    CHECK(contains(refusal("{'a': [1], 'a': [2]}").message, "line 1, column 12: the key 'a' appears twice"));
    CHECK(contains(refusal("{'': [1]}").message, "an empty field name"));
    CHECK(contains(refusal("{input_ids: [1]}").message, "expected a quoted field name"));
    CHECK(contains(refusal("{'a\\nb': [1]}").message, "a field name with escapes"));
    CHECK(contains(refusal("{'a': {'b': [1]}}").message, "a nested dict under 'a'"));
    CHECK(contains(refusal("{'a': foo([1])}").message, "'foo' is not a value the doctor reads"));
    CHECK(contains(refusal("{'a': tensor([1], layout=torch.sparse_coo)}").message, "argument 'layout'"));
    CHECK(contains(refusal("{'a': [1, 2x]}").message, "line 1, column 12: expected ',' or ']'"));
    CHECK(contains(refusal("{'a': [1e]}").message, "exponent"));
  }

  TEST_CASE("columns count characters, not bytes, after non-ASCII text") {
    // "é" is two bytes; the stray ']' is the 19th character of the line.
    CHECK(contains(refusal("{'text': 'é', 'a': ]}").message, "line 1, column 20:"));
  }
}

TEST_SUITE("printed batch: hostile input is bounded") {
  TEST_CASE("nesting deeper than four levels is refused before it can recurse") {
    const std::string deep(100000, '[');
    CHECK(contains(refusal("{'a': " + deep).message, "nested deeper than 4 levels"));
  }

  TEST_CASE("more numbers than the limit are refused while reading, at the number that crosses it") {
    std::string text = "{'a': [";
    text.reserve(static_cast<size_t>(kMaxPastedNumbers) * 2 + 16);
    for (long long i = 0; i <= kMaxPastedNumbers; ++i) text += "0,";
    text += "0]}";
    const InputError e = refusal(text);
    CHECK(contains(e.message, "line 1, column " + std::to_string(7 + 2 * kMaxPastedNumbers + 1) + ": more than 4,194,304 numbers"));
  }

  TEST_CASE("text longer than the limit is refused before it is read") {
    const std::string text(kMaxPastedBytes + 1, ' ');
    CHECK(contains(refusal(text).message, "goes on past 32 MiB"));
  }

  TEST_CASE("control bytes, NUL and invalid UTF-8 are refused without echoing them") {
    const std::string nul("{'a': \0}", 8);
    const InputError e = refusal(nul);
    CHECK(contains(e.message, "found a character the doctor does not read"));
    CHECK(contains(refusal("{'a': \xff}").message, "found a character the doctor does not read"));
  }

  TEST_CASE("regression (fuzz): a field name with a non-ASCII byte is refused, not echoed into the answer") {
    // Found by fuzz_doctor_text (tests/fuzz/regressions/doctor-text-key-with-invalid-utf8): the key
    // "b\xD2uined" was quoted in "expected ':' after the key ...", so the answer was not UTF-8.
    const InputError e = refusal("{\"b\xD2uined\", \"mlx\"}");
    CHECK(e.field == "text");
    CHECK(e.message == "line 1, column 4: a field name with a character that is not plain ASCII; field names are "
                       "plain words like attention_mask");
    // Through the API the answer parses as JSON (valid UTF-8) and names the field.
    const ApiResult r = run_doctor("{'a\xC3\xA9': [1]}", "{}");
    CHECK_FALSE(r.ok);
    CHECK(r.json.find('\xC3') == std::string::npos);
    CHECK_NOTHROW(parse_json(r.json));
  }

  TEST_CASE("too many fields, a field name too long, a number too long") {
    std::string text = "{";
    for (int i = 0; i <= kMaxPastedFields; ++i) text += "'f" + std::to_string(i) + "': 1, ";
    text += "}";
    CHECK(contains(refusal(text).message, "more than 64 fields"));
    CHECK(contains(refusal("{'" + std::string(200, 'k') + "': 1}").message, "longer than 128 characters"));
    CHECK(contains(refusal("{'a': [1." + std::string(80, '5') + "]}").message, "more than 60 characters"));
  }

  TEST_CASE("a byte-order mark and Windows line ends are fine") {
    const PastedBatch p = parse_printed_batch("\xEF\xBB\xBF{'a': tensor([[1,\r\n  2]])}\r\n");
    CHECK(values(p.fields[0]) == "1 2");
  }
}
