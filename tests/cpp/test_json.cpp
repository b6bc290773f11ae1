// test_json.cpp — the core's small JSON parser and writer (json.cpp).
//
// What it promises (json.hpp): strict JSON plus the literals NaN / Infinity / -Infinity that
// Python's json.dumps writes; errors with line and column; nesting capped at Json::kMaxDepth so
// hostile input cannot overflow the stack; numbers written in the shortest form that reads back
// to the same double; non-finite numbers written as null.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <string>

#include "input_error.hpp"
#include "json.hpp"

#include "fixtures.hpp"

using namespace masklab;
using namespace masklab::test;

namespace {

InputError parse_error(const std::string& text) {
  return input_error([&] { parse_json(text); }, "parse_json accepted: " + text);
}

bool reads_back(double x) { return std::strtod(format_number(x).c_str(), nullptr) == x; }

// Significant digits of a decimal text: digits of the mantissa without leading/trailing zeros.
int significant_digits(const std::string& s) {
  std::string mantissa = s.substr(0, s.find_first_of("eE"));
  std::string digits;
  for (char c : mantissa)
    if (c >= '0' && c <= '9') digits += c;
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 0;
  digits = digits.substr(first);
  if (mantissa.find('.') != std::string::npos) digits = digits.substr(0, digits.find_last_not_of('0') + 1);
  return static_cast<int>(digits.size());
}

}  // namespace

TEST_SUITE("json") {

TEST_CASE("parse then print gives compact JSON, and printing is stable") {
  const std::string text =
      "{ \"a\": [1, 2.5, -0.25, true, false, null],\n  \"s\": \"h\\u00e9 \\\"q\\\" \\\\ \\n\", \"o\": {} }";
  // \u00e9 is written back as its two UTF-8 bytes C3 A9; quote, backslash and newline re-escaped.
  const std::string expected = "{\"a\":[1,2.5,-0.25,true,false,null],\"s\":\"h\xc3\xa9 \\\"q\\\" \\\\ \\n\",\"o\":{}}";
  Json v = parse_json(text);
  CHECK(to_json(v) == expected);
  CHECK(to_json(parse_json(expected)) == expected);
  REQUIRE(v.find("a") != nullptr);
  CHECK(v.find("a")->items().size() == 6u);
  CHECK(v.find("missing") == nullptr);
}

TEST_CASE("building values and reading them back") {
  Json o = Json::object();
  o.set("n", Json::number(3)).set("list", Json::array({Json::boolean(true), Json::null()}));
  o.set("n", Json::number(4));  // replaces, keeps the position
  CHECK(to_json(o) == "{\"n\":4,\"list\":[true,null]}");
  CHECK(std::string(Json::describe(Json::Type::Array)) == "an array");
}

TEST_CASE("a duplicate key: the last one wins, as in JSON.parse") {
  Json v = parse_json("{\"a\": 1, \"a\": 2}");
  CHECK(v.find("a")->as_number() == 2.0);
}

TEST_CASE("NaN, Infinity and -Infinity are read as numbers and written as null") {
  Json v = parse_json("[NaN, Infinity, -Infinity, -1]");
  REQUIRE(v.items().size() == 4u);
  CHECK(std::isnan(v.items()[0].as_number()));
  CHECK(v.items()[1].as_number() == HUGE_VAL);
  CHECK(v.items()[2].as_number() == -HUGE_VAL);
  CHECK(v.items()[3].as_number() == -1.0);
  CHECK(to_json(v) == "[null,null,null,-1]");
}

TEST_CASE("strings: \\u escapes, surrogate pairs, and control characters on output") {
  // U+1F600 as a surrogate pair -> UTF-8 F0 9F 98 80; a lone surrogate -> U+FFFD (EF BF BD).
  CHECK(parse_json("\"\\ud83d\\ude00\"").as_string() == "\xF0\x9F\x98\x80");
  CHECK(parse_json("\"\\ud83d\"").as_string() == "\xEF\xBF\xBD");
  CHECK(parse_json("\"\\/\\t\"").as_string() == "/\t");
  // Control characters other than \n \r \t are written as \u00XX.
  CHECK(to_json(Json::string(std::string("\x01\b", 2))) == "\"\\u0001\\u0008\"");
}

TEST_CASE("malformed text: field json, message with line and column") {
  SUBCASE("a missing value on line 2") {
    // Line 2 is `  "a": ,` — the comma is its 8th character.
    InputError e = parse_error("{\n  \"a\": ,\n}");
    CHECK(e.field == "json");
    CHECK(e.message.rfind("line 2, column 8: ", 0) == 0);
    CHECK(e.message.find("expected a value") != std::string::npos);
  }
  SUBCASE("text after the value") {
    // "{} x": the x is at column 4.
    InputError e = parse_error("{} x");
    CHECK(e.message.rfind("line 1, column 4: ", 0) == 0);
  }
  SUBCASE("an unterminated array at the end of input") {
    CHECK(parse_error("[1, 2").message.rfind("line 1, column 6: ", 0) == 0);
  }
  SUBCASE("an unterminated string") { CHECK(parse_error("\"abc").message.find("unterminated string") != std::string::npos); }
  SUBCASE("a raw control character in a string") {
    CHECK(parse_error("\"a\nb\"").message.find("control character") != std::string::npos);
  }
  SUBCASE("malformed numbers") {
    CHECK(parse_error("1.").message.find("malformed number") != std::string::npos);
    CHECK(parse_error("-").message.find("malformed number") != std::string::npos);
    CHECK(parse_error("1e+").message.find("exponent") != std::string::npos);
  }
  SUBCASE("an unquoted key") { CHECK(parse_error("{a: 1}").message.find("quoted key") != std::string::npos); }
  SUBCASE("a bare word") { CHECK(parse_error("tru").message.rfind("line 1, column 1: ", 0) == 0); }
  SUBCASE("empty text") {
    CHECK(parse_error("").message.find("empty") != std::string::npos);
    CHECK(parse_error(" \n ").message.find("empty") != std::string::npos);
  }
}

TEST_CASE("nesting is capped: 100000 '[' is an error, not a stack overflow") {
  InputError e = parse_error(std::string(100000, '['));
  CHECK(e.field == "json");
  CHECK(e.message.find("nesting deeper than") != std::string::npos);

  // kMaxDepth nested arrays are fine; one more is refused.
  const int n = Json::kMaxDepth;
  CHECK_NOTHROW(parse_json(std::string(n, '[') + std::string(n, ']')));
  CHECK(parse_error(std::string(n + 1, '[') + std::string(n + 1, ']')).message.find("nesting") !=
        std::string::npos);
}

TEST_CASE("format_number: the shortest text that reads back to the same double") {
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(0.1 + 0.2) == "0.30000000000000004");  // 0.3 would read back as another double
  CHECK(format_number(1.0 / 3.0) == "0.3333333333333333");   // 16 digits: 15 do not round-trip
  CHECK(format_number(9007199254740992.0) == "9007199254740992");  // 2^53
  CHECK(format_number(3.0) == "3");
  CHECK(format_number(-2.5) == "-2.5");
  CHECK(format_number(-0.0) == "0");
  // 1e-7: one significant digit; the exponent may be printed "e-7" or "e-07".
  CHECK(reads_back(1e-7));
  CHECK(significant_digits(format_number(1e-7)) == 1);
  CHECK(significant_digits(format_number(0.1)) == 1);
}

TEST_CASE("format_number reads back exactly across magnitudes") {
  for (double x : {1e-7, 2.5e-8, 1.0 / 3.0, 2.0 / 3.0, 1e21, 123456789012345678.0, 9007199254740993.0,
                   DBL_MAX, DBL_MIN, 5e-324, -1e-300, std::log(2.0), 1.8 * std::log(2.0), 0.7071067811865476}) {
    CAPTURE(x);
    CHECK(reads_back(x));
  }
}

}  // TEST_SUITE

TEST_CASE("numbers parse to the same double as strtod, on and off the fast path") {
  // The parser multiplies or divides by an exact power of ten when the mantissa has at most 15
  // digits and the exponent is within ±22 (Clinger's fast path); everything else uses strtod.
  // Either way the answer must be the correctly rounded double, which is what strtod returns.
  for (const char* text : {"0.1", "0.3", "-2.5e-3", "1e22", "1e23", "9007199254740993", "123456789012345678",
                           "0.000000000000000000001", "4.9e-324", "1.7976931348623157e308", "-0.0", "10000.000001",
                           "0.1000000000000000055511151231257827", "7.0e-10", "3.14159265358979"}) {
    CAPTURE(text);
    CHECK(parse_json(text).as_number() == std::strtod(text, nullptr));
  }
}
