// decimal.cpp — see decimal.hpp. Every double is m·2^e exactly, so its decimal expansion is a
// finite digit string (at most ~770 significant digits, for the smallest subnormals). Printing
// rounds that string; parsing compares the text's digits with the expansions of the two points
// half-way to a candidate double's neighbours.
#include "decimal.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace masklab::decimal {

namespace {

// The exact decimal expansion of a positive m·2^e: value = 0.d1 d2 … dn × 10^point, d1 != 0.
struct Expansion {
  static constexpr int kMaxDigits = 800;  // > 767 + 2 digits of the smallest midpoint
  char digits[kMaxDigits];
  int size = 0;
  int point = 0;
};

// m·2^e as a big integer in base 1e9 (m·2^e for e >= 0; m·5^-e, i.e. the value times 10^-e, below).
void expand(std::uint64_t m, int e, Expansion& out) {
  constexpr std::uint32_t kBase = 1000000000;
  std::uint32_t limbs[92];  // little-endian; 92 × 9 digits > kMaxDigits
  int n = 0;
  while (m != 0) {
    limbs[n++] = static_cast<std::uint32_t>(m % kBase);
    m /= kBase;
  }
  // Multiply by `factor` (< 2^32) `times` times, chunked so a limb times it fits 64 bits.
  auto multiply = [&](std::uint64_t factor) {
    std::uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t v = limbs[i] * factor + carry;
      limbs[i] = static_cast<std::uint32_t>(v % kBase);
      carry = v / kBase;
    }
    while (carry != 0) {
      limbs[n++] = static_cast<std::uint32_t>(carry % kBase);
      carry /= kBase;
    }
  };
  if (e >= 0) {
    for (int left = e; left > 0; left -= 29) multiply(std::uint64_t{1} << (left < 29 ? left : 29));
  } else {
    static constexpr std::uint32_t kPow5[] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
                                              48828125, 244140625, 1220703125};
    for (int left = -e; left > 0; left -= 13) multiply(kPow5[left < 13 ? left : 13]);
  }
  // Digits, most significant first: the top limb without its leading zeros, then 9 per limb.
  char top[10];
  int t = 0;
  for (std::uint32_t v = limbs[n - 1]; v != 0; v /= 10) top[t++] = static_cast<char>('0' + v % 10);
  int size = 0;
  while (t > 0) out.digits[size++] = top[--t];
  for (int i = n - 2; i >= 0; --i) {
    std::uint32_t v = limbs[i];
    for (int k = 8; k >= 0; --k) {
      out.digits[size + k] = static_cast<char>('0' + v % 10);
      v /= 10;
    }
    size += 9;
  }
  out.point = size + (e < 0 ? e : 0);
  while (size > 1 && out.digits[size - 1] == '0') --size;
  out.size = size;
}

// A positive finite double as m·2^e, m < 2^53.
struct Binary {
  std::uint64_t m;
  int e;
  bool power_of_two_step;  // the gap below is half the gap above (m = 2^52, a normal exponent > min)
};

Binary binary_of(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0) return {fraction, -1074, false};
  return {fraction | (std::uint64_t{1} << 52), biased - 1075, fraction == 0 && biased > 1};
}

// A decimal number to compare: 0.d1 d2 … dn × 10^point (d1 != 0), `more` if nonzero digits were
// dropped after the n kept (so it is just above what the kept digits say).
struct Digits {
  const char* digits;
  int size;
  int point;
  bool more;
};

// Sign of a - b.
int compare(const Digits& a, const Expansion& b) {
  if (a.point != b.point) return a.point < b.point ? -1 : 1;
  const int n = a.size > b.size ? a.size : b.size;
  for (int i = 0; i < n; ++i) {
    const char x = i < a.size ? a.digits[i] : '0';
    const char y = i < b.size ? b.digits[i] : '0';
    if (x != y) return x < y ? -1 : 1;
  }
  return a.more ? 1 : 0;
}

// Where the decimal lies from x's rounding interval: -1 below it (rounds to a smaller double),
// 0 inside (reads as x), 1 above. Ties go to the even significand.
int locate(const Digits& d, double x) {
  const Binary b = binary_of(x);
  const bool even = (b.m & 1) == 0;
  Expansion half;
  expand(2 * b.m + 1, b.e - 1, half);
  const int above = compare(d, half);
  if (above > 0 || (above == 0 && !even)) return 1;
  if (b.power_of_two_step) expand(4 * b.m - 1, b.e - 2, half);
  else expand(2 * b.m - 1, b.e - 1, half);
  const int below = compare(d, half);
  if (below < 0 || (below == 0 && !even)) return -1;
  return 0;
}

double next_up(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  ++bits;
  std::memcpy(&x, &bits, sizeof bits);
  return x;
}

double next_down(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  --bits;
  std::memcpy(&x, &bits, sizeof bits);
  return x;
}

}  // namespace

std::size_t print_g(char* buf, double x, int precision) {
  char* out = buf;
  if (x < 0) {
    *out++ = '-';
    x = -x;
  }
  char digits[20];
  int exponent = 0;  // of the first digit
  if (x == 0) {
    std::memset(digits, '0', sizeof digits);
  } else {
    const Binary b = binary_of(x);
    Expansion exact;
    expand(b.m, b.e, exact);
    exponent = exact.point - 1;
    for (int i = 0; i < precision; ++i) digits[i] = i < exact.size ? exact.digits[i] : '0';
    bool up = false;
    if (exact.size > precision) {
      const char next = exact.digits[precision];
      bool rest = false;
      for (int i = precision + 1; i < exact.size && !rest; ++i) rest = exact.digits[i] != '0';
      up = next > '5' || (next == '5' && (rest || (digits[precision - 1] - '0') % 2 == 1));
    }
    if (up) {
      int i = precision - 1;
      while (i >= 0 && digits[i] == '9') digits[i--] = '0';
      if (i >= 0) {
        ++digits[i];
      } else {  // 99…9 became 100…0
        digits[0] = '1';
        ++exponent;
      }
    }
  }
  // %g: fixed notation when -4 <= exponent < precision, else d.ddde±XX; no trailing zeros.
  int last = precision;
  while (last > 1 && digits[last - 1] == '0') --last;
  if (exponent >= -4 && exponent < precision) {
    if (exponent < 0) {
      *out++ = '0';
      *out++ = '.';
      for (int i = -1; i > exponent; --i) *out++ = '0';
      for (int i = 0; i < last; ++i) *out++ = digits[i];
    } else {
      for (int i = 0; i <= exponent; ++i) *out++ = digits[i];
      if (last > exponent + 1) {
        *out++ = '.';
        for (int i = exponent + 1; i < last; ++i) *out++ = digits[i];
      }
    }
  } else {
    *out++ = digits[0];
    if (last > 1) {
      *out++ = '.';
      for (int i = 1; i < last; ++i) *out++ = digits[i];
    }
    *out++ = 'e';
    *out++ = exponent < 0 ? '-' : '+';
    const int e = exponent < 0 ? -exponent : exponent;
    if (e >= 100) *out++ = static_cast<char>('0' + e / 100);
    *out++ = static_cast<char>('0' + e / 10 % 10);
    *out++ = static_cast<char>('0' + e % 10);
  }
  *out = '\0';
  return static_cast<std::size_t>(out - buf);
}

std::string print_f(double x, int decimals) {
  std::string out = std::signbit(x) ? "-" : "";
  x = std::fabs(x);
  if (std::isnan(x)) return out + "nan";
  if (std::isinf(x)) return out + "inf";
  // The value times 10^decimals, rounded to an integer: its digits are the exact expansion's
  // first `kept` digits, then the rounding looks at the rest.
  std::string scaled;
  char next = '0';
  bool rest = false;
  if (x != 0) {
    const Binary b = binary_of(x);
    Expansion exact;
    expand(b.m, b.e, exact);
    const int kept = exact.point + decimals;
    for (int i = 0; i < kept; ++i) scaled += i < exact.size ? exact.digits[i] : '0';
    if (kept >= 0 && kept < exact.size) next = exact.digits[kept];
    for (int i = kept < 0 ? 0 : kept + 1; i < exact.size && !rest; ++i) rest = exact.digits[i] != '0';
  }
  const bool odd = !scaled.empty() && (scaled.back() - '0') % 2 == 1;
  if (next > '5' || (next == '5' && (rest || odd))) {
    int i = static_cast<int>(scaled.size()) - 1;
    while (i >= 0 && scaled[i] == '9') scaled[i--] = '0';
    if (i >= 0) ++scaled[i];
    else scaled.insert(scaled.begin(), '1');
  }
  if (scaled.size() < static_cast<std::size_t>(decimals) + 1) scaled.insert(0, decimals + 1 - scaled.size(), '0');
  if (decimals > 0) scaled.insert(scaled.end() - decimals, '.');
  return out + scaled;
}

int read_exponent(const char*& p, const char* end) {
  if (p >= end || (*p != 'e' && *p != 'E')) return 0;
  ++p;
  bool negative = false;
  if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  int e = 0;
  for (; p < end && *p >= '0' && *p <= '9'; ++p)
    if (e < 100000) e = e * 10 + (*p - '0');
  return negative ? -e : e;
}

double parse(const char* text, std::size_t size) {
  const char* p = text;
  const char* end = text + size;
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  // The significant digits (leading zeros dropped), at most kKept of them; `point` counts the
  // digits before the decimal point, less the leading zeros after it.
  constexpr int kKept = Expansion::kMaxDigits;
  char kept[kKept];
  int n = 0, point = 0;
  bool more = false, seen_nonzero = false, fraction = false;
  for (; p < end; ++p) {
    if (*p == '.' && !fraction) {
      fraction = true;
      continue;
    }
    if (*p < '0' || *p > '9') break;
    if (!seen_nonzero && *p == '0') {
      if (fraction) --point;
      continue;
    }
    seen_nonzero = true;
    if (!fraction) ++point;
    if (n < kKept) kept[n++] = *p;
    else more = more || *p != '0';
  }
  point += read_exponent(p, end);
  while (n > 0 && kept[n - 1] == '0') --n;
  const double zero = negative ? -0.0 : 0.0;
  const double infinity = negative ? -__builtin_huge_val() : __builtin_huge_val();
  if (n == 0 || point < -324) return zero;  // below 1e-324: under half the smallest subnormal
  if (point > 310) return infinity;
  const Digits d{kept, n, point, more};

  // A first guess within a few units in the last place: up to 19 digits times a power of ten.
  std::uint64_t lead = 0;
  const int used = n < 19 ? n : 19;
  for (int i = 0; i < used; ++i) lead = lead * 10 + static_cast<std::uint64_t>(kept[i] - '0');
  int scale = point - used;  // the value is about lead × 10^scale
  double x = static_cast<double>(lead);
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  while (scale > 0) {
    const int step = scale < 22 ? scale : 22;
    x *= kPow10[step];
    scale -= step;
  }
  while (scale < 0) {
    const int step = -scale < 22 ? -scale : 22;
    x /= kPow10[step];
    scale += step;
  }
  // Then step to the double whose rounding interval holds the text.
  if (!(x <= 1.7976931348623157e308)) x = 1.7976931348623157e308;
  if (x < 4.9406564584124654e-324) x = 4.9406564584124654e-324;
  for (;;) {
    const int where = locate(d, x);
    if (where == 0) break;
    if (where > 0) {
      if (x == 1.7976931348623157e308) return infinity;
      x = next_up(x);
    } else {
      if (x == 4.9406564584124654e-324) return zero;
      x = next_down(x);
    }
  }
  return negative ? -x : x;
}

}  // namespace masklab::decimal
