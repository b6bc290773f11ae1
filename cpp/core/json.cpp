// json.cpp — see json.hpp. A recursive-descent parser with a depth cap (so hostile input like
// 100000 '[' cannot overflow the stack) and a writer that appends to one std::string.
#include "json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "input_error.hpp"

namespace masklab {

Json Json::boolean(bool b) {
  Json j;
  j.type_ = Type::Bool;
  j.bool_ = b;
  return j;
}
Json Json::number(double x) {
  Json j;
  j.type_ = Type::Number;
  j.number_ = x;
  return j;
}
Json Json::string(std::string s) {
  Json j;
  j.type_ = Type::String;
  j.string_ = std::move(s);
  return j;
}
Json Json::array(std::vector<Json> items) {
  Json j;
  j.type_ = Type::Array;
  j.items_ = std::move(items);
  return j;
}
Json Json::object() {
  Json j;
  j.type_ = Type::Object;
  return j;
}

const Json* Json::find(std::string_view key) const {
  // Last one wins, like JSON.parse and Python's json.loads.
  for (auto it = members_.rbegin(); it != members_.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

Json& Json::set(std::string key, Json value) {
  for (auto& m : members_)
    if (m.first == key) {
      m.second = std::move(value);
      return *this;
    }
  members_.emplace_back(std::move(key), std::move(value));
  return *this;
}

Json& Json::push(Json value) {
  items_.push_back(std::move(value));
  return *this;
}

const char* Json::describe(Type t) {
  switch (t) {
    case Type::Null: return "null";
    case Type::Bool: return "true/false";
    case Type::Number: return "a number";
    case Type::String: return "a string";
    case Type::Array: return "an array";
    case Type::Object: return "an object";
  }
  return "a value";
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Json parse_document() {
    skip_space();
    if (pos_ == text_.size()) fail("the request is empty; expected a JSON object");
    Json v = parse_value(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw InputError("json", "line " + std::to_string(line) + ", column " + std::to_string(col) +
                                 ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        ++pos_;
      else
        break;
    }
  }

  bool consume_word(std::string_view w) {
    if (text_.substr(pos_, w.size()) == w) {
      pos_ += w.size();
      return true;
    }
    return false;
  }

  Json parse_value(int depth) {
    if (depth >= Json::kMaxDepth)
      fail("nesting deeper than " + std::to_string(Json::kMaxDepth) + " levels");
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end of input; expected a value");
    char c = text_[pos_];
    // Numbers first: a request is mostly numbers.
    if ((c >= '0' && c <= '9') || (c == '-' && !(pos_ + 1 < text_.size() && text_[pos_ + 1] == 'I')))
      return parse_number();
    if (c == '[') return parse_array(depth);
    if (c == '{') return parse_object(depth);
    if (c == '"') return Json::string(parse_string());
    if (consume_word("true")) return Json::boolean(true);
    if (consume_word("false")) return Json::boolean(false);
    if (consume_word("null")) return Json::null();
    if (consume_word("NaN")) return Json::number(std::nan(""));
    if (consume_word("Infinity")) return Json::number(HUGE_VAL);
    if (consume_word("-Infinity")) return Json::number(-HUGE_VAL);
    fail(std::string("unexpected character '") + c + "'; expected a value");
  }

  Json parse_number() {
    size_t start = pos_;
    const bool negative = text_[pos_] == '-';
    if (negative) ++pos_;
    // Clinger's fast path: with at most 15 significant digits and a power of ten up to 1e22
    // both are exact doubles, so one multiplication or division rounds correctly. Logits from
    // Python usually qualify; anything else goes to strtod.
    std::uint64_t mantissa = 0;
    int digits_seen = 0, exponent10 = 0;
    bool exact = true;
    auto digits = [&](bool fraction) {
      size_t s = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        if (mantissa != 0 || text_[pos_] != '0') ++digits_seen;
        if (digits_seen <= 15) {
          mantissa = mantissa * 10 + static_cast<std::uint64_t>(text_[pos_] - '0');
          if (fraction) --exponent10;
        } else {
          exact = false;
        }
        ++pos_;
      }
      return pos_ - s;
    };
    if (digits(false) == 0) fail("malformed number");
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (digits(true) == 0) fail("malformed number: digits expected after '.'");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      bool negative_exp = false;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) negative_exp = text_[pos_++] == '-';
      size_t s = pos_;
      int e = 0;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        if (e < 100000) e = e * 10 + (text_[pos_] - '0');
        ++pos_;
      }
      if (pos_ == s) fail("malformed number: digits expected in the exponent");
      exponent10 += negative_exp ? -e : e;
    }
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    if (exact && exponent10 >= -22 && exponent10 <= 22) {
      double x = static_cast<double>(mantissa);
      x = exponent10 < 0 ? x / kPow10[-exponent10] : x * kPow10[exponent10];
      return Json::number(negative ? -x : x);
    }
    std::string token(text_.substr(start, pos_ - start));
    return Json::number(std::strtod(token.c_str(), nullptr));
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  unsigned parse_hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= unsigned(h - '0');
      else if (h >= 'a' && h <= 'f') v |= unsigned(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= unsigned(h - 'A' + 10);
      else fail("bad hex digit in \\u escape");
    }
    return v;
  }

  std::string parse_string() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character inside a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated escape");
      char e = text_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = parse_hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF && text_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            unsigned lo = parse_hex4();
            if (lo >= 0xDC00 && lo <= 0xDFFF) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            else cp = 0xFFFD;
          } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;  // lone surrogate: keep going, mark it
          }
          append_utf8(out, cp);
          break;
        }
        default: fail(std::string("unknown escape '\\") + e + "'");
      }
    }
  }

  Json parse_array(int depth) {
    ++pos_;
    Json arr = Json::array();
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return arr;
    }
    while (true) {
      arr.push(parse_value(depth + 1));
      skip_space();
      if (pos_ >= text_.size()) fail("unterminated array; expected ',' or ']'");
      char c = text_[pos_++];
      if (c == ']') return arr;
      if (c != ',') {
        --pos_;
        fail("expected ',' or ']' in array");
      }
    }
  }

  Json parse_object(int depth) {
    ++pos_;
    Json obj = Json::object();
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return obj;
    }
    while (true) {
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a quoted key in object");
      std::string key = parse_string();
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ':') fail("expected ':' after key \"" + key + "\"");
      ++pos_;
      obj.set(std::move(key), parse_value(depth + 1));
      skip_space();
      if (pos_ >= text_.size()) fail("unterminated object; expected ',' or '}'");
      char c = text_[pos_++];
      if (c == '}') return obj;
      if (c != ',') {
        --pos_;
        fail("expected ',' or '}' in object");
      }
    }
  }
};

void write_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

void write(std::string& out, const Json& v) {
  switch (v.type()) {
    case Json::Type::Null: out += "null"; break;
    case Json::Type::Bool: out += v.as_bool() ? "true" : "false"; break;
    case Json::Type::Number:
      if (std::isfinite(v.as_number())) out += format_number(v.as_number());
      else out += "null";
      break;
    case Json::Type::String: write_string(out, v.as_string()); break;
    case Json::Type::Array: {
      out += '[';
      bool first = true;
      for (const auto& item : v.items()) {
        if (!first) out += ',';
        first = false;
        write(out, item);
      }
      out += ']';
      break;
    }
    case Json::Type::Object: {
      out += '{';
      bool first = true;
      for (const auto& [k, item] : v.members()) {
        if (!first) out += ',';
        first = false;
        write_string(out, k);
        out += ':';
        write(out, item);
      }
      out += '}';
      break;
    }
  }
}

}  // namespace

Json parse_json(std::string_view text) { return Parser(text).parse_document(); }

std::string to_json(const Json& value) {
  std::string out;
  write(out, value);
  return out;
}

std::string format_number(double x) {
  if (x == 0) return "0";  // also folds -0 to 0
  if (std::fabs(x) < 1e15 && x == std::floor(x)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  // Shortest of 15, 16 or 17 significant digits that reads back to x. %g drops trailing zeros,
  // so a number with a short form (0.5, 0.1) already prints short at 16 digits; 15 is tried only
  // when 16 used every digit, and 17 always reads back. Each printf/strtod pair is the cost of
  // a response, so the common cases take one or two.
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.16g", x);
  if (std::strtod(buf, nullptr) != x) {
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
  }
  int digits = 0;
  for (const char* c = buf; *c && *c != 'e'; ++c) digits += (*c >= '0' && *c <= '9') ? 1 : 0;
  if (digits >= 16) {
    char shorter[40];
    std::snprintf(shorter, sizeof shorter, "%.15g", x);
    if (std::strtod(shorter, nullptr) == x) return shorter;
  }
  return buf;
}

}  // namespace masklab
