// decimal.hpp — doubles to and from decimal text, correctly rounded, without printf or strtod.
//
// Emscripten 3.1.6's libc++ has no std::to_chars / std::from_chars for double, and musl's
// snprintf("%g") and strtod pull ~25 KB of code into every wasm module (printf's machinery and a
// software long double). These give the same answers from exact arithmetic: a double is
// m·2^e, whose decimal expansion is finite, so rounding it to P digits — or deciding which double
// a decimal text is nearest to — is a matter of comparing digit strings. Where the standard
// library has the double overloads (natively), json.cpp and json_parse.cpp use those instead.
#pragma once

#include <cstddef>
#include <string>

namespace masklab::decimal {

// printf's "%.<precision>g" of a finite x (1 <= precision <= 17), rounded to nearest, ties to
// even on the exact value; writes at most 31 bytes and a NUL into buf, returns the length.
std::size_t print_g(char* buf, double x, int precision);

// printf's "%.<decimals>f" of x (0 <= decimals <= 17): rounded to nearest, ties to even on the
// exact value; "-" for any negative x (also "-0.0"); "inf" / "nan" with their sign.
std::string print_f(double x, int decimals);

// The double nearest to `text` (JSON number grammar: -?digits[.digits][(e|E)[+-]digits]), ties to
// even; ±infinity when it is beyond the largest double, ±0 below the smallest — as strtod.
double parse(const char* text, std::size_t size);

// The exponent part of a number's text, (e|E)[+-]digits, read at p: its value, and p moved past
// it; 0 with p unmoved when p is not at an 'e'. Digits stop counting once the value passes 100000
// (no double is that many powers of ten from 1), so a long run of them cannot overflow an int.
int read_exponent(const char*& p, const char* end);

}  // namespace masklab::decimal
