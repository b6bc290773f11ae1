// json.hpp — a small JSON value, parser and writer for the core's requests and responses.
//
// Why our own: the core must not pull in <iostream>/<sstream> (one stream in the core adds
// about 100 KB raw, 40 KB gzip, to the wasm module), and errors must say line and column.
// What it accepts beyond strict JSON: the literals NaN, Infinity and -Infinity, because
// Python's json.dumps writes them and we want to answer "logits[0][3][1] is NaN" instead
// of "unexpected character". It is not a general-purpose library: no comments, no
// duplicate-key policy beyond "last one wins", nesting capped at kMaxDepth.
#pragma once

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

  Json() = default;
  static Json null() { return Json(); }
  static Json boolean(bool b);
  static Json number(double x);
  static Json string(std::string s);
  static Json array(std::vector<Json> items = {});
  static Json object();

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool is_bool() const { return type_ == Type::Bool; }
  bool is_number() const { return type_ == Type::Number; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }

  bool as_bool() const { return bool_; }
  double as_number() const { return number_; }
  const std::string& as_string() const { return string_; }
  const std::vector<Json>& items() const { return items_; }
  std::vector<Json>& items() { return items_; }
  const std::vector<std::pair<std::string, Json>>& members() const { return members_; }

  // Object access: nullptr when the key is absent.
  const Json* find(std::string_view key) const;
  // Object building: appends (or replaces) a member and returns *this for chaining.
  Json& set(std::string key, Json value);
  // Array building.
  Json& push(Json value);

  // "null", "true", "a number", "a string", "an array", "an object" — for error messages.
  static const char* describe(Type t);

 private:
  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0.0;
  std::string string_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

// Throws InputError with field "json" and "line L, column C: …" on malformed text.
Json parse_json(std::string_view text);

// Compact JSON. Numbers print in the shortest form that reads back to the same double;
// a non-finite number prints as null (responses never carry NaN: they say why instead).
std::string to_json(const Json& value);

// Shortest decimal text that parses back to exactly x (finite x only).
std::string format_number(double x);

}  // namespace masklab
