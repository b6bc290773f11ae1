// test_decimal.cpp — decimal.hpp, the wasm modules' printf-free %.Pg and strtod.
//
// The module prints and parses numbers with these (Emscripten's libc++ has no double
// to_chars/from_chars), the native build with the standard library; CLI and wasm answers must be
// byte-identical, so both must agree on every double. Checked here against libstdc++'s to_chars
// (correctly rounded, as printf) and glibc's strtod, on hand-checked edge cases and on random bit
// patterns and decimal texts.
#include <doctest/doctest.h>

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>

#include "decimal.hpp"

namespace {

std::string g(double x, int precision) {
  char buf[32];
  const std::size_t n = masklab::decimal::print_g(buf, x, precision);
  REQUIRE(n == std::strlen(buf));
  return std::string(buf, n);
}

double parse(const std::string& text) { return masklab::decimal::parse(text.data(), text.size()); }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("print_g rounds the exact binary value, ties to even, in printf's %g layout") {
  CHECK(g(0.1, 17) == "0.10000000000000001");  // 0.1000000000000000055511151231257827…
  CHECK(g(0.1, 16) == "0.1");
  CHECK(g(1e23, 17) == "9.9999999999999992e+22");  // the double nearest 1e23 is below it
  CHECK(g(2.5, 1) == "2");  // exact ties go to the even digit
  CHECK(g(3.5, 1) == "4");
  CHECK(g(0.125, 2) == "0.12");
  CHECK(g(9.9999, 3) == "10");  // rounding carries into a new digit
  CHECK(g(0.0001, 6) == "0.0001");  // %g stays fixed down to 1e-4 …
  CHECK(g(0.00001, 6) == "1e-05");  // … and switches below, with two exponent digits at least
  CHECK(g(123456.0, 6) == "123456");
  CHECK(g(1234567.0, 6) == "1.23457e+06");
  CHECK(g(-DBL_MAX, 17) == "-1.7976931348623157e+308");
  CHECK(g(4.9406564584124654e-324, 17) == "4.9406564584124654e-324");
}

TEST_CASE("parse finds the nearest double, ties to even, and saturates as strtod") {
  CHECK(parse("0.1") == 0.1);
  CHECK(parse("9007199254740993") == 9007199254740992.0);  // 2^53 + 1: a tie, to the even 2^53
  CHECK(parse("9007199254740993.0000000000000000001") == 9007199254740994.0);  // just past the tie
  CHECK(parse("1.7976931348623158e308") == DBL_MAX);
  CHECK(std::isinf(parse("1.7976931348623159e308")));  // past DBL_MAX + half its gap
  CHECK(parse("2.4703282292062328e-324") == 4.9406564584124654e-324);  // over half the smallest
  CHECK(same_bits(parse("2.4703282292062327e-324"), 0.0));  // under it
  CHECK(same_bits(parse("-1e-400"), -0.0));
  CHECK(parse("-1e400") == -HUGE_VAL);
  CHECK(parse("0.000123e3") == 0.123);
  CHECK(same_bits(parse("0.000"), 0.0));
}

TEST_CASE("read_exponent reads (e|E)[+-]digits and leaves the pointer after it") {
  const auto read = [](const std::string& text) {
    const char* p = text.data();
    const int value = masklab::decimal::read_exponent(p, text.data() + text.size());
    return std::make_pair(value, static_cast<int>(p - text.data()));
  };
  CHECK(read("e5") == std::make_pair(5, 2));
  CHECK(read("E-12,") == std::make_pair(-12, 4));  // stops at the first non-digit
  CHECK(read("e+007") == std::make_pair(7, 5));
  CHECK(read("5") == std::make_pair(0, 0));  // no exponent: nothing read
  CHECK(read("") == std::make_pair(0, 0));
  // 30 nines: the value stops growing past 100000 (here 999999) instead of overflowing, and every
  // digit is still consumed.
  const auto [big, used] = read("e" + std::string(30, '9'));
  CHECK(big == 999999);
  CHECK(used == 31);
  CHECK(read("e-" + std::string(30, '9')).first == -999999);
  // What parse makes of it: beyond any double, either way.
  CHECK(std::isinf(parse("1e" + std::string(30, '9'))));
  CHECK(same_bits(parse("1e-" + std::string(30, '9')), 0.0));
}

TEST_CASE("print_g and parse agree with the standard library on random doubles") {
  std::mt19937_64 random(20261201);
  for (int i = 0; i < 20000; ++i) {
    std::uint64_t bits = random();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    for (int precision : {15, 16, 17}) {
      char expected[40];
      auto [end, ec] = std::to_chars(expected, expected + sizeof expected - 1, x, std::chars_format::general, precision);
      REQUIRE(ec == std::errc());
      *end = '\0';
      REQUIRE(g(x, precision) == expected);
      REQUIRE(same_bits(parse(expected), std::strtod(expected, nullptr)));
    }
    // A decimal text with more digits than a double holds, around x: the hard cases for parsing.
    char text[64];
    auto [end, ec] = std::to_chars(text, text + sizeof text - 1, x, std::chars_format::scientific, 22);
    REQUIRE(ec == std::errc());
    *end = '\0';
    REQUIRE(same_bits(parse(text), std::strtod(text, nullptr)));
  }
}

TEST_CASE("print_f is printf's %.Nf: the exact value rounded, ties to even, the sign kept") {
  using masklab::decimal::print_f;
  CHECK(print_f(45.55, 1) == "45.5");  // 45.55 is stored as 45.5499999999999971578…
  CHECK(print_f(0.05, 1) == "0.1");    // and 0.05 as 0.05000000000000000277…
  CHECK(print_f(0.125, 2) == "0.12");  // an exact tie goes to the even digit
  CHECK(print_f(2.5, 0) == "2");
  CHECK(print_f(99.96, 1) == "100.0");
  CHECK(print_f(-0.01, 1) == "-0.0");
  CHECK(print_f(0.0, 4) == "0.0000");
  CHECK(print_f(-HUGE_VAL, 1) == "-inf");
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> share(0.0, 1.0);
  for (int i = 0; i < 20000; ++i) {
    const double x = i % 2 ? share(random) * 100 : std::ldexp(share(random), static_cast<int>(random() % 80) - 40);
    for (int decimals : {0, 1, 4, 6}) {
      char expected[400];
      std::snprintf(expected, sizeof expected, "%.*f", decimals, x);
      REQUIRE(print_f(x, decimals) == expected);
    }
  }
}
