// json.cpp — see json.hpp: the value type, the writer and the number text. The parser is
// json_parse.cpp.
#include "json.hpp"

#include "decimal.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace masklab {

// ---------------------------------------------------------------------------------------------
// The value type.

Json::Json(const Json& other) : type_(other.type_), bool_(other.bool_) {
  switch (type_) {
    case Type::String: payload_.string = new std::string(*other.payload_.string); break;
    case Type::Array: payload_.items = new Items(*other.payload_.items); break;
    case Type::Object: payload_.members = new Members(*other.payload_.members); break;
    default: payload_ = other.payload_;
  }
}

Json& Json::operator=(const Json& other) {
  if (this != &other) *this = Json(other);
  return *this;
}

Json& Json::operator=(Json&& other) noexcept {
  if (this != &other) {
    release();
    type_ = other.type_;
    bool_ = other.bool_;
    payload_ = other.payload_;
    other.type_ = Type::Null;
  }
  return *this;
}

void Json::release() noexcept {
  switch (type_) {
    case Type::String: delete payload_.string; break;
    case Type::Array: delete payload_.items; break;
    case Type::Object: delete payload_.members; break;
    default: break;
  }
  type_ = Type::Null;
}

Json Json::boolean(bool b) {
  Json j;
  j.type_ = Type::Bool;
  j.bool_ = b;
  return j;
}
Json Json::number(double x) {
  Json j;
  j.type_ = Type::Number;
  j.payload_.number = x;
  return j;
}
Json Json::string(std::string s) {
  Json j;
  j.payload_.string = new std::string(std::move(s));
  j.type_ = Type::String;
  return j;
}
Json Json::array(std::vector<Json> items) {
  Json j;
  j.payload_.items = new Items(std::move(items));
  j.type_ = Type::Array;
  return j;
}
Json Json::object() { return object(Members{}); }
Json Json::object(Members members) {
  Json j;
  j.payload_.members = new Members(std::move(members));
  j.type_ = Type::Object;
  return j;
}

const std::string& Json::as_string() const {
  static const std::string empty;
  return type_ == Type::String ? *payload_.string : empty;
}

const Json::Items& Json::items() const {
  static const Items empty;
  return type_ == Type::Array ? *payload_.items : empty;
}

Json::Items& Json::items() {
  if (type_ != Type::Array) *this = array();
  return *payload_.items;
}

const Json::Members& Json::members() const {
  static const Members empty;
  return type_ == Type::Object ? *payload_.members : empty;
}

const Json* Json::find(std::string_view key) const {
  const Members& m = members();
  // Last one wins, like JSON.parse and Python's json.loads.
  for (auto it = m.rbegin(); it != m.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

Json& Json::set(std::string key, Json value) {
  if (type_ != Type::Object) *this = object();
  for (auto& m : *payload_.members)
    if (m.first == key) {
      m.second = std::move(value);
      return *this;
    }
  payload_.members->emplace_back(std::move(key), std::move(value));
  return *this;
}

Json& Json::push(Json value) {
  items().push_back(std::move(value));
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

std::string field_path(std::string_view parent, std::string_view key) {
  std::string name = key.empty() ? std::string("\"\"") : std::string(key);
  return parent.empty() ? name : std::string(parent) + "." + name;
}

// ---------------------------------------------------------------------------------------------
// Number text. std::to_chars where the standard library has it for doubles (libstdc++: exactly
// printf's %.Pg, several times faster); Emscripten 3.1.6's libc++ 13 has only the integer
// overloads, so the module prints and reads back with decimal.hpp — the same correctly rounded
// digits, without the ~25 KB that snprintf and strtod add to each wasm module.

namespace {

// %.<precision>g into buf (at least 32 bytes); returns the length.
size_t print_g(char* buf, double x, int precision) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  auto [end, ec] = std::to_chars(buf, buf + 31, x, std::chars_format::general, precision);
  (void)ec;  // 31 bytes always fit "-d.dddddddddddddddde-308"
  *end = '\0';
  return static_cast<size_t>(end - buf);
#else
  return decimal::print_g(buf, x, precision);
#endif
}

bool reads_back(const char* text, size_t size, double x) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  double y = 0;
  std::from_chars(text, text + size, y);
  return y == x;
#else
  return decimal::parse(text, size) == x;
#endif
}

}  // namespace

std::string format_number(double x) {
  if (x == 0) return "0";  // also folds -0 to 0
  if (std::fabs(x) < 1e15 && x == std::floor(x)) {
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<long long>(x));
    (void)ec;
    return std::string(buf, end);
  }
  // Shortest of 15, 16 or 17 significant digits that reads back to x. %g drops trailing zeros,
  // so a number with a short form (0.5, 0.1) already prints short at 16 digits; 15 is tried only
  // when 16 used every digit, and 17 always reads back.
  char buf[32];
  size_t n = print_g(buf, x, 16);
  if (!reads_back(buf, n, x)) return std::string(buf, print_g(buf, x, 17));
  int digits = 0;
  for (const char* c = buf; *c && *c != 'e'; ++c) digits += (*c >= '0' && *c <= '9') ? 1 : 0;
  if (digits >= 16) {
    char shorter[32];
    const size_t m = print_g(shorter, x, 15);
    if (reads_back(shorter, m, x)) return std::string(shorter, m);
  }
  return std::string(buf, n);
}

// ---------------------------------------------------------------------------------------------
// The writer: appends to one string.

namespace {

void write_string(std::string& out, const std::string& s) {
  static constexpr char kHex[] = "0123456789abcdef";
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
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
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

std::string to_json(const Json& value) {
  std::string out;
  write(out, value);
  return out;
}

}  // namespace masklab
