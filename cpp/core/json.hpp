// json.hpp — the JSON value the core's requests and answers are made of, its parser and writer.
//
// Parsing is RapidJSON's SAX reader (json_parse.cpp) building this small value type; writing is
// ours (json.cpp), because answers must keep their exact text: numbers in the shortest of 15, 16
// or 17 significant digits that reads back, printf style ("1e-07"), and strings escaped as today.
// What it accepts beyond strict JSON: NaN, Infinity and -Infinity, because Python's json.dumps
// writes them and we want to answer "logits[0][3][1] is NaN" instead of "unexpected character".
// What it refuses with a message naming the field: invalid UTF-8 and lone UTF-16 surrogates in
// strings, numbers beyond ±1.8e308. Duplicate keys: the last one wins (as in JSON.parse).
// Nesting is capped at kMaxDepth, and the number of values at JsonLimits::max_values, counted
// while parsing, so an oversized request is refused before it costs memory (limits.hpp).
//
// A value is 16 bytes: numbers, booleans and null live inline; strings, arrays and objects own
// one heap block each. Copies are deep; moves are cheap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace masklab {

class Json {
 public:
  enum class Type : std::uint8_t { Null, Bool, Number, String, Array, Object };
  static constexpr int kMaxDepth = 64;
  using Items = std::vector<Json>;
  using Members = std::vector<std::pair<std::string, Json>>;

  Json() = default;
  Json(const Json& other);
  Json(Json&& other) noexcept : type_(other.type_), bool_(other.bool_), payload_(other.payload_) {
    other.type_ = Type::Null;
  }
  Json& operator=(const Json& other);
  Json& operator=(Json&& other) noexcept;
  ~Json() { release(); }

  static Json null() { return Json(); }
  static Json boolean(bool b);
  static Json number(double x);
  static Json string(std::string s);
  static Json array(std::vector<Json> items = {});
  static Json object();
  static Json object(Members members);  // members as given: no duplicate check

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool is_bool() const { return type_ == Type::Bool; }
  bool is_number() const { return type_ == Type::Number; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }

  // Reading a value as another type gives false, 0, "" or an empty list.
  bool as_bool() const { return type_ == Type::Bool && bool_; }
  double as_number() const { return type_ == Type::Number ? payload_.number : 0.0; }
  const std::string& as_string() const;
  const Items& items() const;
  Items& items();  // makes a non-array an empty array first
  const Members& members() const;

  // Object access: nullptr when the key is absent.
  const Json* find(std::string_view key) const;
  // Object building: appends (or replaces) a member and returns *this for chaining. A non-object
  // becomes an empty object first.
  Json& set(std::string key, Json value);
  // Array building (a non-array becomes an empty array first).
  Json& push(Json value);

  // "null", "true/false", "a number", "a string", "an array", "an object" — for error messages.
  static const char* describe(Type t);

 private:
  void release() noexcept;

  Type type_ = Type::Null;
  bool bool_ = false;
  union Payload {
    double number;
    std::string* string;
    Items* items;
    Members* members;
  } payload_{0.0};
};

// How much a parse may build before it stops with "the request is too large" (limits.hpp).
struct JsonLimits {
  std::size_t max_values = static_cast<std::size_t>(-1);  // every number, string, true/false/null,
                                                          // array and object counts one
  std::string_view what = "the request";                  // names the text in the message
};

// Throws InputError: field "json" and "line L, column C: …" for malformed text; the field's own
// path ("features[0].input_ids[2]") for a string that is not valid Unicode or a number beyond the
// double range; "json" or the top-level field for a text over `limits`.
Json parse_json(std::string_view text);
Json parse_json(std::string_view text, const JsonLimits& limits);

// Compact JSON. Numbers print in the shortest form that reads back to the same double;
// a non-finite number prints as null (responses never carry NaN: they say why instead).
std::string to_json(const Json& value);

// How a field inside an object is named in messages: "features[0]" + "input_ids" ->
// "features[0].input_ids"; "" + "logits" -> "logits". An empty key is shown as "".
std::string field_path(std::string_view parent, std::string_view key);

// Shortest decimal text that parses back to exactly x (finite x only), printf %g style:
// the first of %.16g (or %.15g when 16 used every digit) and %.17g that reads back.
// Example: 0.1 -> "0.1", 0.1 + 0.2 -> "0.30000000000000004", 1e-7 -> "1e-07".
std::string format_number(double x);

}  // namespace masklab
