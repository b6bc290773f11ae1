// printed_batch.cpp — see printed_batch.hpp. A hand-written reader for one small grammar
// (a Python dict of tensor reprs / lists, which JSON and JSONL are special cases of), because no
// JSON library reads `tensor(`, `...` or single quotes, and because a 4-million-number paste must
// go straight into flat arrays: a parse tree would cost ~100 bytes a number.
#include "printed_batch.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <utility>

#include "decimal.hpp"
#include "input_error.hpp"
#include "limits.hpp"

namespace masklab {

const PastedField* PastedBatch::find(std::string_view name) const {
  for (const auto& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

namespace {

struct TextPoint {
  int line = 1, column = 1;
};

// The point of byte `at`, counting on from `p` at byte `from` (from <= at): the reader asks for
// each field's point in text order, so it counts each byte once rather than once per field.
TextPoint point_after(std::string_view text, TextPoint p, size_t from, size_t at) {
  for (size_t i = from; i < at && i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((c & 0xC0) != 0x80) {  // not a UTF-8 continuation byte: a new character
      ++p.column;
    }
  }
  return p;
}

TextPoint point_at(std::string_view text, size_t at) { return point_after(text, TextPoint{}, 0, at); }

}  // namespace

std::string text_position(std::string_view text, size_t at) {
  const TextPoint p = point_at(text, at);
  return "line " + std::to_string(p.line) + ", column " + std::to_string(p.column);
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_word(char c) { return is_word_start(c) || is_digit(c); }

// Who printed a tensor value: PyTorch (tensor(...)) or numpy (array(...)). The values print alike;
// the suffixes differ.
enum class Printer { Torch, Numpy };

// What the reader expects of each depth of one value's nested lists, set by the first list that
// closes at that depth: a tensor is rectangular and PyTorch elides every row the same way.
struct DepthShape {
  bool seen = false;
  int items = 0;
  bool elided = false;
  int head = 0;
};

// One object of the text (the whole batch, or one JSONL line) while it is read.
struct Mapping {
  std::vector<PastedField> fields;
  std::vector<std::string> skipped;
  bool any_tensor = false;
  bool double_quoted = false;  // keys written "like this" (JSON) rather than 'like this'
};

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  PastedBatch read() {
    if (text_.size() > kMaxPastedBytes) {
      pos_ = kMaxPastedBytes;
      fail("the text goes on past " + std::to_string(kMaxPastedBytes >> 20) +
           " MiB, more than the doctor reads (the text is too large); paste one batch (or a few hundred JSONL lines)");
    }
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte-order mark
    skip_space();
    if (at_end())
      fail("the text is empty; paste what print(batch) printed, a JSON object, or one JSON object per line");
    if (is_word_start(cur())) return read_wrapped();
    if (cur() == '{') return read_objects();
    if (cur() == '[')
      fail("a bare list has no field names; paste the whole dict ({'input_ids': ..., 'labels': ...})");
    if (starts(">>>") || starts("In ["))
      fail("paste only what print(batch) printed, without the Python prompt");
    fail("expected '{', the start of a printed batch dict or a JSON object; " + found());
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  long long numbers_ = 0;
  size_t counted_to_ = 0;   // field_point has counted lines and columns up to this byte
  TextPoint counted_point_;

  TextPoint field_point(size_t at) {
    if (at < counted_to_) return point_at(text_, at);
    counted_point_ = point_after(text_, counted_point_, counted_to_, at);
    counted_to_ = at;
    return counted_point_;
  }

  [[noreturn]] void fail_at(size_t at, const std::string& what) const {
    throw InputError("text", text_position(text_, at) + ": " + what);
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }

  bool at_end() const { return pos_ >= text_.size(); }
  char cur() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool starts(std::string_view w) const { return text_.substr(pos_, w.size()) == w; }

  std::string found() const {
    if (at_end()) return "the text ends here (is the paste cut off?)";
    const unsigned char c = static_cast<unsigned char>(cur());
    if (c < 0x20 || c >= 0x7F) return "found a character the doctor does not read";
    return std::string("found '") + cur() + "'";
  }

  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }

  void expect(char c, const std::string& context) {
    skip_space();
    if (cur() != c) fail(std::string("expected '") + c + "' " + context + "; " + found());
    ++pos_;
  }

  std::string_view word() {
    const size_t start = pos_;
    while (pos_ < text_.size() && is_word(text_[pos_]) && pos_ - start < 64) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // BatchEncoding({...}) / BatchFeature(data={...}): people paste these wrappers (transformers'
  // own print shows the plain dict: both classes are UserDicts whose repr is the dict's).
  PastedBatch read_wrapped() {
    const size_t start = pos_;
    const std::string_view name = word();
    if (name == "tensor" || name == "array")
      fail_at(start, std::string(name == "tensor" ? "a tensor" : "an array") +
                         " without its field name; paste the whole dict that print(batch) printed "
                         "({'input_ids': " + std::string(name) + "(...), ...})");
    if (name != "BatchEncoding" && name != "BatchFeature")
      fail_at(start, "expected '{' (a printed batch dict or a JSON object), or BatchEncoding({...}); found '" +
                         std::string(name) + "'");
    expect('(', "after " + std::string(name));
    skip_space();
    if (starts("data")) {
      pos_ += 4;
      expect('=', "after data");
      skip_space();
    }
    if (cur() != '{') fail("expected '{' inside " + std::string(name) + "(...); " + found());
    Mapping m = read_mapping();
    expect(')', "to close " + std::string(name) + "(");
    skip_space();
    if (!at_end()) fail("unexpected text after the batch; " + found());
    return finish_single(std::move(m));
  }

  PastedBatch read_objects() {
    Mapping first = read_mapping();
    size_t end = pos_;
    skip_space();
    if (at_end()) return finish_single(std::move(first));
    if (cur() != '{') fail("unexpected text after the batch; " + found());
    // JSONL: one object per line, each one example.
    std::vector<std::pair<size_t, Mapping>> lines;
    lines.emplace_back(0, std::move(first));
    while (!at_end()) {
      if (text_.substr(end, pos_ - end).find('\n') == std::string_view::npos)
        fail("two objects on one line; JSONL has one JSON object per line");
      if (static_cast<int>(lines.size()) >= kMaxPastedLines)
        fail("more than " + std::to_string(kMaxPastedLines) + " lines; check a file in parts");
      const size_t start = pos_;
      if (cur() != '{') fail("expected '{' to start the next JSONL line; " + found());
      lines.emplace_back(start, read_mapping());
      end = pos_;
      skip_space();
    }
    return merge_lines(std::move(lines));
  }

  PastedBatch finish_single(Mapping m) {
    PastedBatch out;
    out.form = m.any_tensor || !m.double_quoted ? PastedForm::PrintedDict : PastedForm::Json;
    out.fields = std::move(m.fields);
    out.skipped = std::move(m.skipped);
    return out;
  }

  // JSONL lines -> rank-2 fields (one row per line; ragged when lengths differ). Every line must
  // carry the same numeric keys, with a list (or a number) under each.
  PastedBatch merge_lines(std::vector<std::pair<size_t, Mapping>> lines) {
    PastedBatch out;
    out.form = PastedForm::JsonLines;
    const Mapping& head = lines.front().second;
    for (const auto& f : head.fields) {
      PastedField merged;
      merged.name = f.name;
      merged.line = f.line;
      merged.column = f.column;
      merged.floating = false;
      const int rank = f.rank();
      if (rank > 1)
        fail_at(0, "the first line's " + f.name + " has " + std::to_string(rank) +
                       " dimensions; in JSONL each line is one example, so each field is a list of numbers");
      bool ragged = false;
      for (size_t i = 0; i < lines.size(); ++i) {
        const PastedField* g = nullptr;
        for (const auto& cand : lines[i].second.fields)
          if (cand.name == f.name) g = &cand;
        if (!g) fail_at(lines[i].first, "this line has no " + f.name + " but the first line does");
        if (g->rank() != rank)
          fail_at(lines[i].first, "this line's " + f.name + " is " + (g->rank() ? "a list" : "a number") +
                                      " but the first line's is " + (rank ? "a list" : "a number"));
        merged.values.insert(merged.values.end(), g->values.begin(), g->values.end());
        merged.row_lengths.push_back(static_cast<int>(g->values.size()));
        merged.floating = merged.floating || g->floating;
        if (merged.row_lengths.back() != merged.row_lengths.front()) ragged = true;
      }
      if (rank == 0) {
        merged.dims = {PastedDim{static_cast<int>(lines.size()), false, 0}};
        merged.row_lengths.clear();
      } else {
        int widest = 0;
        for (int n : merged.row_lengths) widest = n > widest ? n : widest;
        merged.dims = {PastedDim{static_cast<int>(lines.size()), false, 0}, PastedDim{widest, false, 0}};
        if (!ragged) merged.row_lengths.clear();
      }
      out.fields.push_back(std::move(merged));
    }
    for (size_t i = 1; i < lines.size(); ++i)
      for (const auto& g : lines[i].second.fields)
        if (!out.find(g.name)) fail_at(lines[i].first, "this line has " + g.name + " but the first line does not");
    out.skipped = head.skipped;
    return out;
  }

  // '{' key ':' value (',' key ':' value)* '}' — a trailing comma is tolerated.
  Mapping read_mapping() {
    Mapping m;
    ++pos_;  // '{'
    skip_space();
    if (cur() == '}') fail("the batch is empty: no fields between '{' and '}'");
    for (;;) {
      skip_space();
      const size_t key_at = pos_;
      std::string key = read_key(m);
      for (const auto& f : m.fields)
        if (f.name == key) fail_at(key_at, "the key '" + key + "' appears twice");
      for (const auto& s : m.skipped)
        if (s == key) fail_at(key_at, "the key '" + key + "' appears twice");
      expect(':', "after the key '" + key + "'");
      skip_space();
      read_value(m, std::move(key));
      skip_space();
      if (cur() == ',') {
        ++pos_;
        skip_space();
        if (cur() == '}') {
          ++pos_;
          break;
        }
        continue;
      }
      if (cur() == '}') {
        ++pos_;
        break;
      }
      fail("expected ',' or '}' after the value of '" + m_last_key(m) + "'; " + found());
    }
    return m;
  }

  static std::string m_last_key(const Mapping& m) {
    return m.fields.empty() ? (m.skipped.empty() ? "" : m.skipped.back()) : m.fields.back().name;
  }

  std::string read_key(Mapping& m) {
    const char quote = cur();
    if (quote != '\'' && quote != '"') fail("expected a quoted field name such as 'input_ids'; " + found());
    if (quote == '"') m.double_quoted = true;
    const size_t start = ++pos_;
    while (!at_end() && cur() != quote) {
      const char c = cur();
      if (c == '\\' || c == '\n' || static_cast<unsigned char>(c) < 0x20)
        fail("a field name with escapes or line breaks; field names are plain words like attention_mask");
      // Field names are echoed in messages and in the answer: a non-ASCII byte could make the
      // answer invalid UTF-8 (fuzz regression doctor-text-key-with-invalid-utf8), and no collator
      // names a tensor with one.
      if (static_cast<unsigned char>(c) >= 0x7F)
        fail("a field name with a character that is not plain ASCII; field names are plain words like "
             "attention_mask");
      if (pos_ - start >= kMaxPastedKeyLength)
        fail("a field name longer than " + std::to_string(kMaxPastedKeyLength) + " characters");
      ++pos_;
    }
    if (at_end()) fail_at(start - 1, "this field name is never closed");
    std::string key(text_.substr(start, pos_ - start));
    ++pos_;
    if (key.empty()) fail_at(start - 1, "an empty field name");
    return key;
  }

  void read_value(Mapping& m, std::string key) {
    const size_t at = pos_;
    const char c = cur();
    if (c == '\'' || c == '"') {  // a string (e.g. 'text': '...'): nothing to check in it
      skip_string();
      m.skipped.push_back(std::move(key));
      return;
    }
    if (starts("None") || starts("null")) {
      pos_ += 4;
      m.skipped.push_back(std::move(key));
      return;
    }
    if (c == '{') fail("a nested dict under '" + key + "'; the doctor reads flat batches of tensors or lists");
    if (static_cast<int>(m.fields.size()) >= kMaxPastedFields)
      fail("more than " + std::to_string(kMaxPastedFields) + " fields");

    PastedField f;
    f.name = std::move(key);
    const TextPoint where = field_point(at);
    f.line = where.line;
    f.column = where.column;
    if (starts("tensor(") || starts("array(")) {
      const Printer printer = starts("tensor(") ? Printer::Torch : Printer::Numpy;
      pos_ += printer == Printer::Torch ? 7 : 6;
      f.is_tensor = true;
      m.any_tensor = true;
      read_tensor(f, printer);
    } else if (c == '[') {
      read_array(f, false);
    } else if (c == '-' || is_digit(c) || starts("True") || starts("False") || starts("true") || starts("false")) {
      f.values.push_back(read_number(f));
    } else if (is_word_start(c)) {
      const std::string_view name = word();
      fail_at(at, "'" + std::string(name) + "' is not a value the doctor reads; expected tensor(...), array(...), a list or a number");
    } else {
      fail("expected tensor(...), array(...), a list or a number for '" + f.name + "'; " + found());
    }
    m.fields.push_back(std::move(f));
  }

  void skip_string() {
    const char quote = cur();
    const size_t start = pos_++;
    while (!at_end() && cur() != quote) {
      if (cur() == '\n') fail_at(start, "this string is never closed on its line");
      if (cur() == '\\') ++pos_;
      ++pos_;
    }
    if (at_end()) fail_at(start, "this string is never closed");
    ++pos_;
  }

  // tensor( data (, name=value)* ) — the suffixes PyTorch's _str_intern adds.
  // After "tensor(" or "array(": the values, then the suffixes that printer writes.
  void read_tensor(PastedField& f, Printer printer) {
    const char* const opening = printer == Printer::Torch ? "tensor(" : "array(";
    skip_space();
    if (cur() == '[') read_array(f, true);
    else if (cur() == '-' || is_digit(cur()) || starts("True") || starts("False") || starts("inf") || starts("nan"))
      f.values.push_back(read_number(f));
    else fail(std::string("expected a list or a number after ") + opening + "; " + found());
    std::vector<int> size;
    bool has_size = false;
    for (;;) {
      skip_space();
      if (cur() == ')') {
        ++pos_;
        break;
      }
      if (cur() != ',') fail(std::string("expected ',' or ')' in ") + opening + "...); " + found());
      ++pos_;
      skip_space();
      const size_t at = pos_;
      const std::string_view name = word();
      expect('=', "after " + std::string(name.empty() ? "the argument name" : name));
      skip_space();
      if (printer == Printer::Numpy) {
        read_numpy_suffix(f, name, at, size, has_size);
      } else if (name == "device") {
        f.device = read_quoted_word();
      } else if (name == "dtype") {
        if (!starts("torch.")) fail("expected torch.<type> after dtype=; " + found());
        pos_ += 6;
        const std::string_view type = word();
        if (type.empty()) fail("expected a type name after torch.; " + found());
        f.dtype = "torch." + std::string(type);
      } else if (name == "size") {
        size = read_size_tuple();
        has_size = true;
      } else if (name == "requires_grad") {
        if (starts("True")) pos_ += 4;
        else if (starts("False")) pos_ += 5;
        else fail("expected True or False after requires_grad=; " + found());
      } else if (name == "grad_fn") {
        if (cur() != '<') fail("expected <...> after grad_fn=; " + found());
        const size_t start = pos_;
        while (!at_end() && cur() != '>' && cur() != '\n' && pos_ - start < 128) ++pos_;
        if (cur() != '>') fail_at(start, "this grad_fn=<...> is never closed");
        ++pos_;
      } else {
        fail_at(at, "tensor(...) argument '" + std::string(name) +
                        "' is not one PyTorch prints for a dense tensor (device, dtype, size, requires_grad, grad_fn)");
      }
    }
    if (has_size && f.values.empty()) {  // tensor([], size=(2, 0)), array([], shape=(2, 0)): the shape is in the suffix
      if (size.empty() || static_cast<int>(size.size()) > kMaxPastedRank)
        fail(std::string(printer == Printer::Torch ? "size" : "shape") + "=(...) must have 1 to " +
             std::to_string(kMaxPastedRank) + " dimensions");
      f.dims.clear();
      for (int n : size) f.dims.push_back(PastedDim{n, false, 0});
    }
  }

  // numpy's array repr (arrayprint.py, _array_repr_implementation) adds at most `shape=(…)` (an
  // empty array that is not 1-D) and `dtype=<name>` (a dtype that is not implied: int32, uint8,
  // float32, … — never int64 on Linux, float64 or bool), quoted when the name is not a word
  // ('>i4'). An array of strings never gets here: its values are not numbers.
  void read_numpy_suffix(PastedField& f, std::string_view name, size_t at, std::vector<int>& size, bool& has_size) {
    if (name == "dtype") {
      const std::string type = cur() == '\'' || cur() == '"' ? read_quoted_word() : std::string(word());
      if (type.empty()) fail("expected a numpy type name after dtype=; " + found());
      f.dtype = "numpy." + type;
    } else if (name == "shape") {
      size = read_size_tuple();
      has_size = true;
    } else {
      fail_at(at, "array(...) argument '" + std::string(name) + "' is not one numpy prints for an array (dtype, shape)");
    }
  }

  std::string read_quoted_word() {
    const char quote = cur();
    if (quote != '\'' && quote != '"') fail("expected a quoted value such as 'cuda:0'; " + found());
    const size_t start = ++pos_;
    while (!at_end() && cur() != quote && cur() != '\n' && pos_ - start < 64) ++pos_;
    if (cur() != quote) fail_at(start - 1, "this quoted value is never closed");
    std::string s(text_.substr(start, pos_ - start));
    ++pos_;
    return s;
  }

  std::vector<int> read_size_tuple() {
    expect('(', "after size=");
    std::vector<int> dims;
    for (;;) {
      skip_space();
      if (cur() == ')') {
        ++pos_;
        return dims;
      }
      if (!is_digit(cur())) fail("expected a whole number in size=(...); " + found());
      long long n = 0;
      while (is_digit(cur())) {
        n = n * 10 + (cur() - '0');
        if (n > (1 << 30)) fail("a size larger than the doctor reads");
        ++pos_;
      }
      if (dims.size() >= static_cast<size_t>(kMaxPastedRank)) fail("size=(...) has too many dimensions");
      dims.push_back(static_cast<int>(n));
      skip_space();
      if (cur() == ',') ++pos_;
      else if (cur() != ')') fail("expected ',' or ')' in size=(...); " + found());
    }
  }

  // A nested list. `in_tensor` allows PyTorch's "..." and demands a rectangular shape; plain
  // lists may be ragged at rank 2 (one row per example, before padding).
  void read_array(PastedField& f, bool in_tensor) {
    std::vector<DepthShape> shapes(kMaxPastedRank);
    int leaf_depth = -1;
    std::vector<int> rows;  // items of each depth-1 list of leaves (rank 2): ragged check
    read_list(f, in_tensor, 0, shapes, leaf_depth, rows);
    const int rank = leaf_depth + 1;
    f.dims.clear();
    for (int d = 0; d < rank; ++d) f.dims.push_back(PastedDim{shapes[d].items, shapes[d].elided, shapes[d].head});
    if (rank == 2) {
      bool ragged = false;
      int widest = 0;
      for (int n : rows) {
        ragged = ragged || n != rows.front();
        widest = n > widest ? n : widest;
      }
      if (ragged) {
        f.row_lengths = std::move(rows);
        f.dims[1] = PastedDim{widest, false, 0};
      }
    }
  }

  void read_list(PastedField& f, bool in_tensor, int depth, std::vector<DepthShape>& shapes, int& leaf_depth,
                 std::vector<int>& rows) {
    const size_t open = pos_;
    ++pos_;  // '['
    int items = 0;
    bool elided = false;
    int head = 0;
    enum class Kind { Unknown, Numbers, Lists } kind = Kind::Unknown;
    skip_space();
    if (cur() == ']') {
      ++pos_;
    } else {
      for (;;) {
        skip_space();
        if (at_end()) fail_at(open, "this list is never closed (is the paste cut off?)");
        const char c = cur();
        if (c == '.') {
          if (!starts("...")) fail("expected a number; " + found());
          if (!in_tensor)
            fail("'...' is how PyTorch and numpy mark elided items; it appears only inside tensor(...) or array(...)");
          if (elided) fail("a second '...' in the same list");
          if (items == 0) fail("'...' before the first item");
          pos_ += 3;
          elided = true;
          head = items;
        } else if (c == '[') {
          if (kind == Kind::Numbers) fail("this list mixes numbers and lists");
          kind = Kind::Lists;
          if (depth + 1 >= kMaxPastedRank)
            fail("lists nested deeper than " + std::to_string(kMaxPastedRank) + " levels");
          read_list(f, in_tensor, depth + 1, shapes, leaf_depth, rows);
          ++items;
        } else {
          if (kind == Kind::Lists) fail("this list mixes numbers and lists");
          if (in_tensor && starts("list("))  // numpy's repr of a ragged array (dtype=object)
            fail("a ragged numpy array (rows of different lengths print as list([...]) in an array of dtype=object); "
                 "pad the rows first, or paste .tolist() of the field");
          kind = Kind::Numbers;
          f.values.push_back(read_small_int() ? small_int_ : read_number(f));
          ++items;
        }
        skip_space();
        if (cur() == ',') {
          ++pos_;
          skip_space();
          if (cur() == ']') {
            ++pos_;
            break;
          }
          continue;
        }
        if (cur() == ']') {
          ++pos_;
          break;
        }
        if (at_end()) fail_at(open, "this list is never closed (is the paste cut off?)");
        fail("expected ',' or ']' in the list; " + found());
      }
    }
    if (elided && items == head) fail_at(open, "'...' must be followed by the last items of the list");
    if (kind != Kind::Lists) {  // a list of numbers (or an empty one): the innermost depth
      if (leaf_depth < 0) leaf_depth = depth;
      else if (leaf_depth != depth) fail_at(open, "lists of numbers at different depths; a batch field is rectangular");
      if (depth == 1) rows.push_back(items);
    }
    DepthShape& s = shapes[depth];
    if (!s.seen) {
      s = DepthShape{true, items, elided, head};
      return;
    }
    const bool ragged_row_ok = !in_tensor && depth == 1 && kind != Kind::Lists && !elided && !s.elided;
    if (ragged_row_ok) {
      if (items > s.items) s.items = items;
      return;
    }
    if (s.items != items || s.elided != elided || s.head != head)
      fail_at(open, "this list has " + std::to_string(items) + " items" + (elided ? " around '...'" : "") +
                        " but the first one at this depth has " + std::to_string(s.items) +
                        (in_tensor ? "; a printed tensor is rectangular" : ""));
  }

  // The common case, inlined: an integer of up to 9 digits followed by a delimiter (ids, masks,
  // -100). Leaves pos_ alone and returns false for anything else, which read_number then reads.
  double small_int_ = 0;
  bool read_small_int() {
    size_t p = pos_;
    const bool negative = p < text_.size() && text_[p] == '-';
    if (negative) ++p;
    const size_t first = p;
    std::int64_t v = 0;
    while (p < text_.size() && is_digit(text_[p]) && p - first < 9) v = v * 10 + (text_[p++] - '0');
    if (p == first || (p < text_.size() && (is_digit(text_[p]) || text_[p] == '.' || text_[p] == 'e' || text_[p] == 'E')))
      return false;
    if (++numbers_ > kMaxPastedNumbers) {
      --numbers_;
      return false;  // read_number counts it again and refuses it there
    }
    pos_ = p;
    small_int_ = static_cast<double>(negative ? -v : v);
    return true;
  }

  double read_number(PastedField& f) {
    if (++numbers_ > kMaxPastedNumbers)
      fail("more than " + grouped(kMaxPastedNumbers) +
           " numbers in all, more than the doctor reads at once (the batch is too large); paste a smaller batch");
    const size_t start = pos_;
    const bool negative = cur() == '-';
    if (negative) ++pos_;
    if (!is_digit(cur())) {  // words are rare: checked only when no digit comes
      if (!negative && (starts("True") || starts("true"))) {
        pos_ += 4;
        return 1;
      }
      if (!negative && (starts("False") || starts("false"))) {
        pos_ += 5;
        return 0;
      }
      if (starts("Infinity") || starts("inf")) {
        pos_ += starts("Infinity") ? 8 : 3;
        f.floating = true;
        return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
      }
      if (!negative && (starts("nan") || starts("NaN"))) {
        pos_ += 3;
        f.floating = true;
        return std::numeric_limits<double>::quiet_NaN();
      }
      fail_at(start, "expected a number; " + found());
    }
    std::uint64_t mantissa = 0;
    int digits = 0;
    while (is_digit(cur())) {
      if (digits < 19) mantissa = mantissa * 10 + static_cast<std::uint64_t>(cur() - '0');
      ++digits;
      ++pos_;
    }
    bool is_float = false;
    if (cur() == '.') {  // PyTorch prints integral floats as "1." and others as "0.5000"
      is_float = true;
      ++pos_;
      while (is_digit(cur())) ++pos_;
    }
    if (cur() == 'e' || cur() == 'E') {
      is_float = true;
      ++pos_;
      if (cur() == '+' || cur() == '-') ++pos_;
      if (!is_digit(cur())) fail("expected the exponent's digits; " + found());
      while (is_digit(cur())) ++pos_;
    }
    if (!is_float && digits <= 15) {
      const double x = static_cast<double>(mantissa);
      return negative ? -x : x;
    }
    f.floating = f.floating || is_float;
    const size_t length = pos_ - start;
    if (length >= 64) fail_at(start, "a number with more than 60 characters");
    // strtod's answer, without libc's strtod in the wasm module (decimal.hpp)
    return decimal::parse(text_.data() + start, length);
  }
};

}  // namespace

PastedBatch parse_printed_batch(std::string_view text) { return Reader(text).read(); }

}  // namespace masklab
