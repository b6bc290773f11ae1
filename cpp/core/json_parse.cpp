// json_parse.cpp — parse_json (json.hpp): RapidJSON's SAX reader drives a builder of Json values.
//
// RapidJSON does the grammar, the escapes, the UTF-8 validation and NaN/Infinity; the builder
// here counts values and depth as they arrive (so an oversized request stops early, before it
// has cost memory), turns each number's text into the correctly rounded double, and remembers
// where it is ("features[0].input_ids[2]") so that an error inside a value names its field.
// Not here: what any field means (requests.cpp), or the limits' values (limits.hpp).
#include <rapidjson/error/error.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "decimal.hpp"
#include "code_size.hpp"
#include "input_error.hpp"
#include "json.hpp"
#include "limits.hpp"

namespace masklab {

namespace {

// Validate UTF-8, never recurse (nesting is capped by the builder, not the call stack), accept
// NaN/Infinity, and hand numbers over as text so the builder converts them (see to_double).
constexpr unsigned kParseFlags = rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag |
                                 rapidjson::kParseNanAndInfFlag | rapidjson::kParseNumbersAsStringsFlag;

// Why the builder stopped the reader; RapidJSON itself only reports "terminated".
enum class Stop { None, TooDeep, TooMany, NumberRange, LoneSurrogate };

// Number text (valid JSON grammar, or NaN / Inf / Infinity with an optional '-') -> double.
// Clinger's fast path: with at most 15 significant digits and a power of ten up to 1e22 both
// are exact doubles, so one multiplication or division rounds correctly; logits from Python
// usually qualify. Anything else goes to the library's correctly rounded conversion.
double to_double(const char* text, size_t size) {
  const char* p = text;
  const char* end = text + size;
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  if (p < end && *p == 'N') return std::nan("");
  if (p < end && *p == 'I') return negative ? -HUGE_VAL : HUGE_VAL;

  std::uint64_t mantissa = 0;
  int digits_seen = 0, exponent10 = 0;
  bool exact = true;
  auto digits = [&](bool fraction) {
    for (; p < end && *p >= '0' && *p <= '9'; ++p) {
      if (mantissa != 0 || *p != '0') ++digits_seen;
      if (digits_seen <= 15) {
        mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
        if (fraction) --exponent10;
      } else {
        exact = false;
      }
    }
  };
  digits(false);
  if (p < end && *p == '.') {
    ++p;
    digits(true);
  }
  exponent10 += decimal::read_exponent(p, end);
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (exact && exponent10 >= -22 && exponent10 <= 22) {
    double x = static_cast<double>(mantissa);
    x = exponent10 < 0 ? x / kPow10[-exponent10] : x * kPow10[exponent10];
    return negative ? -x : x;
  }
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  double x = 0;
  auto [ptr, ec] = std::from_chars(text, end, x);
  (void)ptr;
  if (ec == std::errc::result_out_of_range) {
    // from_chars leaves x alone on range errors; strtod's answer (±inf or a rounded 0) is wanted.
    return std::strtod(std::string(text, size).c_str(), nullptr);
  }
  return x;
#else
  return decimal::parse(text, size);  // correctly rounded, as strtod, without libc's strtod (decimal.hpp)
#endif
}

// A UTF-16 surrogate decoded on its own (RapidJSON 1.1.0 lets a lone low surrogate such as
// "\udc00" through as the bytes ED B0 80, which is not UTF-8).
bool has_surrogate(const char* s, size_t n) {
  for (size_t i = 0; i + 1 < n; ++i)
    if (static_cast<unsigned char>(s[i]) == 0xED && static_cast<unsigned char>(s[i + 1]) >= 0xA0) return true;
  return false;
}

class Builder {
 public:
  Builder(const JsonLimits& limits, const rapidjson::MemoryStream& stream) : limits_(limits), stream_(stream) {}

  // --- RapidJSON's SAX events -------------------------------------------------------------
  bool Null() { return scalar(Json()); }
  bool Bool(bool b) { return scalar(Json::boolean(b)); }
  // With kParseNumbersAsStringsFlag every number arrives as RawNumber; these keep the handler
  // complete for the reader's template.
  bool Int(int x) { return scalar(Json::number(x)); }
  bool Uint(unsigned x) { return scalar(Json::number(x)); }
  bool Int64(std::int64_t x) { return scalar(Json::number(static_cast<double>(x))); }
  bool Uint64(std::uint64_t x) { return scalar(Json::number(static_cast<double>(x))); }
  bool Double(double x) { return scalar(Json::number(x)); }
  bool RawNumber(const char* text, rapidjson::SizeType size, bool) {
    const double x = to_double(text, size);
    if (std::isinf(x) && !(std::memchr(text, 'I', size))) {
      stopped_ = Stop::NumberRange;
      number_text_.assign(text, size);
      return false;
    }
    return scalar(Json::number(x));
  }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    if (has_surrogate(s, n)) return stop_at(Stop::LoneSurrogate);
    return scalar(Json::string(std::string(s, n)));
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    if (has_surrogate(s, n)) return stop_at(Stop::LoneSurrogate);
    keys_.emplace_back(s, n);
    return true;
  }
  bool StartObject() { return open(true); }
  bool StartArray() { return open(false); }
  bool EndObject(rapidjson::SizeType) { return close_object(); }
  bool EndArray(rapidjson::SizeType) { return close_array(); }

  // --- results ------------------------------------------------------------------------------
  Json take_result() { return std::move(result_); }
  Stop stopped() const { return stopped_; }
  size_t stop_offset() const { return stop_offset_; }
  const std::string& number_text() const { return number_text_; }
  // True between an object's members, where the next string is a key.
  bool expecting_key() const {
    return !frames_.empty() && frames_.back().object && keys_.size() == frames_.back().key_base + frames_.back().count;
  }

  // Where the value being read sits: "features[0].input_ids[2]" (empty at the top level).
  std::string path() const {
    std::string p;
    for (const Frame& f : frames_) {
      if (f.object) {
        const size_t k = f.key_base + f.count;
        if (k >= keys_.size()) break;  // between members: the object itself is the place
        p = field_path(p, keys_[k]);
      } else {
        p += "[" + std::to_string(f.count) + "]";
      }
    }
    return p;
  }
  // The request's own top-level field the reader is in ("logits"), or "" outside any.
  std::string top_field() const {
    if (frames_.empty() || !frames_[0].object || frames_[0].key_base + frames_[0].count >= keys_.size()) return "";
    return field_path("", keys_[frames_[0].key_base + frames_[0].count]);
  }
  std::string last_key() const { return keys_.empty() ? std::string() : keys_.back(); }

 private:
  struct Frame {
    bool object;
    size_t value_base;  // first of this container's values in values_
    size_t key_base;    // first of this object's keys in keys_
    size_t count = 0;   // values (members) completed so far
  };

  bool stop_at(Stop why) {
    stopped_ = why;
    stop_offset_ = stream_.Tell();
    return false;
  }

  bool count_value() {
    if (++values_seen_ > limits_.max_values) return stop_at(Stop::TooMany);
    return true;
  }

  bool scalar(Json v) { return count_value() && append(std::move(v)); }

  bool append(Json v) {
    if (frames_.empty()) {
      result_ = std::move(v);
      return true;
    }
    values_.push_back(std::move(v));
    ++frames_.back().count;
    return true;
  }

  bool open(bool object) {
    if (frames_.size() >= static_cast<size_t>(Json::kMaxDepth)) return stop_at(Stop::TooDeep);
    if (!count_value()) return false;
    frames_.push_back(Frame{object, values_.size(), keys_.size()});
    return true;
  }

  bool close_array() {
    const Frame f = frames_.back();
    frames_.pop_back();
    std::vector<Json> items(std::make_move_iterator(values_.begin() + static_cast<long>(f.value_base)),
                            std::make_move_iterator(values_.end()));
    values_.resize(f.value_base);
    return append(Json::array(std::move(items)));
  }

  bool close_object() {
    const Frame f = frames_.back();
    frames_.pop_back();
    Json::Members members;
    members.reserve(f.count);
    for (size_t i = 0; i < f.count; ++i)
      members.emplace_back(std::move(keys_[f.key_base + i]), std::move(values_[f.value_base + i]));
    values_.resize(f.value_base);
    keys_.resize(f.key_base);
    drop_duplicate_keys(members);
    return append(Json::object(std::move(members)));
  }

  // A repeated key keeps its first place and takes its last value, as Json::set does — sorted,
  // so an object with many keys costs n log n, not n².
  static void drop_duplicate_keys(Json::Members& m) {
    if (m.size() < 2) return;
    std::vector<size_t> order(m.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return m[a].first < m[b].first; });
    std::vector<bool> dropped(m.size(), false);
    bool any = false;
    for (size_t i = 0; i + 1 < order.size(); ++i) {
      size_t j = i;
      while (j + 1 < order.size() && m[order[j + 1]].first == m[order[i]].first) ++j;
      if (j > i) {
        m[order[i]].second = std::move(m[order[j]].second);
        for (size_t k = i + 1; k <= j; ++k) dropped[order[k]] = true;
        any = true;
      }
      i = j;
    }
    if (!any) return;
    size_t out = 0;
    for (size_t i = 0; i < m.size(); ++i)
      if (!dropped[i]) {
        if (out != i) m[out] = std::move(m[i]);
        ++out;
      }
    m.resize(out);
  }

  const JsonLimits& limits_;
  const rapidjson::MemoryStream& stream_;
  std::vector<Frame> frames_;
  std::vector<Json> values_;       // completed values of the open containers, in order
  std::vector<std::string> keys_;  // keys of the open objects' members, in order
  Json result_;
  size_t values_seen_ = 0;
  Stop stopped_ = Stop::None;
  size_t stop_offset_ = 0;
  std::string number_text_;
};

std::string line_column(std::string_view text, size_t offset) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

[[noreturn]] void syntax_error(std::string_view text, size_t offset, const std::string& what) {
  throw InputError("json", line_column(text, offset) + ": " + what);
}

std::string quoted_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u < 0x20 || u >= 0x7F) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 0xF];
  }
  return std::string("'") + c + "'";
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Turns RapidJSON's error code and offset into our message; names the field where the error
// is inside a value (a string that is not Unicode, a number out of range).
[[noreturn]] MASKLAB_SMALL_CODE void report(std::string_view text, const rapidjson::ParseResult& result, const Builder& b,
                         const JsonLimits& limits) {
  using namespace rapidjson;
  size_t at = std::min(result.Offset(), text.size());
  const bool at_end = at >= text.size();
  const std::string value_field = b.path().empty() ? "request" : b.path();
  const bool in_key = b.expecting_key();  // the bad string is a key, not a value
  switch (b.stopped()) {
    case Stop::TooDeep:
      syntax_error(text, at, "nesting deeper than " + std::to_string(Json::kMaxDepth) + " levels");
    case Stop::TooMany: {
      const std::string field = b.top_field().empty() ? "json" : b.top_field();
      throw InputError(field, std::string(limits.what) + " has more than " + grouped(limits.max_values) +
                                  " values (numbers, strings, lists, objects); it is refused before any work "
                                  "(the request is too large)");
    }
    case Stop::NumberRange:
      throw InputError(value_field, "is " + b.number_text() + ", beyond the largest double (about 1.8e308)");
    case Stop::LoneSurrogate:
      throw InputError(value_field, std::string(b.expecting_key() ? "has a key that contains" : "contains") +
                           " a lone UTF-16 surrogate (a \\ud800-\\udfff escape without its pair, before " +
                           line_column(text, b.stop_offset()) + "); text must be valid Unicode");
    case Stop::None: break;
  }
  switch (result.Code()) {
    case kParseErrorDocumentEmpty: syntax_error(text, at, "the request is empty; expected a JSON object");
    case kParseErrorDocumentRootNotSingular: syntax_error(text, at, "unexpected text after the JSON value");
    case kParseErrorValueInvalid: {
      // After a '-' a digit was expected; otherwise RapidJSON points inside a bad word ("tru",
      // "NaX"): point at its start, as a reader would.
      if (at > 0 && text[at - 1] == '-') syntax_error(text, at, "malformed number");
      while (at > 0 && is_letter(text[at - 1])) --at;
      if (at >= text.size()) syntax_error(text, at, "unexpected end of input; expected a value");
      syntax_error(text, at, "unexpected character " + quoted_char(text[at]) + "; expected a value");
    }
    case kParseErrorObjectMissName: syntax_error(text, at, "expected a quoted key in object");
    case kParseErrorObjectMissColon: syntax_error(text, at, "expected ':' after key \"" + b.last_key() + "\"");
    case kParseErrorObjectMissCommaOrCurlyBracket:
      syntax_error(text, at, at_end ? "unterminated object; expected ',' or '}'" : "expected ',' or '}' in object");
    case kParseErrorArrayMissCommaOrSquareBracket:
      syntax_error(text, at, at_end ? "unterminated array; expected ',' or ']'" : "expected ',' or ']' in array");
    case kParseErrorStringUnicodeEscapeInvalidHex: syntax_error(text, at, "bad hex digit in \\u escape");
    case kParseErrorStringUnicodeSurrogateInvalid:
      throw InputError(value_field, std::string(in_key ? "has a key that contains" : "contains") +
                                        " a lone UTF-16 surrogate (a \\ud800-\\udbff escape not followed by "
                                    "\\udc00-\\udfff, at " +
                                        line_column(text, at) + "); text must be valid Unicode");
    case kParseErrorStringEscapeInvalid:
      if (!at_end && text[at] == '\\' && at + 1 < text.size()) {
        // Never echo a raw byte: a non-ASCII one would make the answer itself invalid UTF-8.
        const char e = text[at + 1];
        const bool plain = e >= 0x20 && e < 0x7F;
        syntax_error(text, at, plain ? std::string("unknown escape '\\") + e + "'"
                                     : "unknown escape: '\\' followed by " + quoted_char(e));
      }
      syntax_error(text, at, "control character inside a string (write it as an escape such as \\n)");
    case kParseErrorStringMissQuotationMark: syntax_error(text, at, "unterminated string");
    case kParseErrorStringInvalidEncoding:
      throw InputError(value_field, std::string(in_key ? "has a key that is" : "is") + " not valid UTF-8 (" +
                                        (at_end ? std::string("cut short") : quoted_char(text[at])) + " at " +
                                        line_column(text, at) + "); text must be UTF-8");
    case kParseErrorNumberTooBig: {
      size_t end = at;
      while (end < text.size() && std::strchr("+-.0123456789eE", text[end])) ++end;
      throw InputError(value_field, "is " + std::string(text.substr(at, std::min<size_t>(end - at, 40))) +
                                        ", beyond the largest double (about 1.8e308)");
    }
    case kParseErrorNumberMissFraction: syntax_error(text, at, "malformed number: digits expected after '.'");
    case kParseErrorNumberMissExponent: syntax_error(text, at, "malformed number: digits expected in the exponent");
    default: syntax_error(text, at, "malformed JSON");
  }
}

}  // namespace

Json parse_json(std::string_view text) { return parse_json(text, JsonLimits{}); }

Json parse_json(std::string_view text, const JsonLimits& limits) {
  // RapidJSON reads a NUL byte as the end of the text; JSON never allows one, so say so here.
  if (const void* nul = std::memchr(text.data(), '\0', text.size())) {
    const size_t at = static_cast<size_t>(static_cast<const char*>(nul) - text.data());
    syntax_error(text, at, "a NUL byte is not allowed in JSON text");
  }
  rapidjson::MemoryStream stream(text.data(), text.size());
  Builder builder(limits, stream);
  rapidjson::Reader reader;
  const rapidjson::ParseResult result = reader.Parse<kParseFlags>(stream, builder);
  if (result.IsError()) report(text, result, builder, limits);
  return builder.take_result();
}

}  // namespace masklab
