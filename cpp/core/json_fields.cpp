// json_fields.cpp — see json_fields.hpp.
#include "json_fields.hpp"

#include <algorithm>
#include <cmath>

#include "code_size.hpp"
#include "input_error.hpp"
#include "limits.hpp"

namespace masklab {

namespace {
std::string at(const std::string& field, size_t i) { return field + "[" + std::to_string(i) + "]"; }

[[noreturn]] MASKLAB_SMALL_CODE void expected(const Json& v, const std::string& field, const std::string& what) {
  throw InputError(field, std::string("expected ") + what + ", got " + Json::describe(v.type()));
}
}  // namespace

ObjectReader::ObjectReader(const Json& object, std::string path, std::vector<std::string_view> allowed)
    : object_(object), path_(std::move(path)) {
  if (!object.is_object()) expected(object, path_.empty() ? "request" : path_, "an object");
  for (const auto& [key, value] : object.members()) {
    bool known = false;
    for (auto a : allowed) known = known || a == key;
    if (!known) {
      std::string list;
      for (size_t i = 0; i < allowed.size(); ++i) list += (i ? ", " : "") + std::string(allowed[i]);
      throw InputError(this->path(key), "is not a field here; expected one of: " + list);
    }
  }
}

const Json* ObjectReader::get(std::string_view key) const {
  const Json* v = object_.find(key);
  return v && !v->is_null() ? v : nullptr;
}

std::string ObjectReader::path(std::string_view key) const { return field_path(path_, key); }

int read_int(const Json& v, const std::string& field) {
  if (!v.is_number()) expected(v, field, "an integer");
  double x = v.as_number();
  if (!std::isfinite(x) || x != std::floor(x)) throw InputError(field, "expected an integer, got " + format_number(x));
  if (x < -2147483648.0 || x > 2147483647.0) throw InputError(field, "is out of the 32-bit integer range");
  return static_cast<int>(x);
}

double read_number(const Json& v, const std::string& field) {
  if (!v.is_number()) expected(v, field, "a number");
  return v.as_number();
}

bool read_bool(const Json& v, const std::string& field) {
  if (!v.is_bool()) expected(v, field, "true or false");
  return v.as_bool();
}

std::string read_string(const Json& v, const std::string& field) {
  if (!v.is_string()) expected(v, field, "a string");
  return v.as_string();
}

std::vector<int> read_int_list(const Json& v, const std::string& field) {
  if (!v.is_array()) expected(v, field, "an array of integers");
  std::vector<int> out;
  out.reserve(v.items().size());
  for (size_t i = 0; i < v.items().size(); ++i) out.push_back(read_int(v.items()[i], at(field, i)));
  return out;
}

namespace {
constexpr std::uint64_t kReserveCap = std::uint64_t{1} << 22;

std::uint64_t product_of(const std::vector<int>& dims) {
  std::uint64_t p = 1;
  for (int d : dims) p = product({static_cast<long long>(std::min<std::uint64_t>(p, kReserveCap)), d});
  return p;
}

// Paths are built only when something is wrong: building "logits[3][17][5]" for each of a
// quarter-million numbers used to cost more than reading them.
std::string path_of(const std::string& field, const std::vector<int>& index, int depth) {
  std::string p = field;
  for (int d = 0; d < depth; ++d) p += "[" + std::to_string(index[d]) + "]";
  return p;
}

// dims[d] is set by the first array met at depth d; first[d] remembers its path so a ragged row
// is compared with the row that set the width.
[[noreturn]] MASKLAB_SMALL_CODE void not_an_array(const Json& v, const std::string& field, const std::vector<int>& index,
                                                  int depth, int rank) {
  std::string what = "an array";
  if (rank - depth > 1) what += " (" + std::to_string(rank - depth) + " levels of nesting left)";
  expected(v, path_of(field, index, depth), what);
}

// "labels[2] has 5 entries but labels[0] has 6"
[[noreturn]] MASKLAB_SMALL_CODE void ragged(const std::string& field, const std::vector<int>& index, int depth, int n,
                                            const std::string& first, int width) {
  throw InputError(path_of(field, index, depth), "has " + std::to_string(n) + (n == 1 ? " entry" : " entries") +
                                                     " but " + first + " has " + std::to_string(width) +
                                                     "; rows must be equal (ragged input)");
}

template <typename T, typename ReadLeaf>
void read_tensor(const Json& v, const std::string& field, std::vector<int>& index, int depth, int rank,
                 std::vector<int>& dims, std::vector<std::string>& first, std::vector<T>& out, ReadLeaf leaf) {
  if (depth == rank) {
    // The first leaf is reached through the first array of every level, so every extent is
    // known: size the buffer once (capped: a ragged request may claim more than it holds).
    if (out.empty()) out.reserve(std::min<std::uint64_t>(product_of(dims), kReserveCap));
    out.push_back(leaf(v, field, index, depth));
    return;
  }
  if (!v.is_array()) not_an_array(v, field, index, depth, rank);
  const int n = static_cast<int>(v.items().size());
  if (dims[depth] < 0) {
    if (n == 0) throw InputError(path_of(field, index, depth), "is empty");
    dims[depth] = n;
    first[depth] = path_of(field, index, depth);
  } else if (n != dims[depth]) {
    ragged(field, index, depth, n, first[depth], dims[depth]);
  }
  for (int i = 0; i < n; ++i) {
    index[depth] = i;
    read_tensor(v.items()[i], field, index, depth + 1, rank, dims, first, out, leaf);
  }
}

int int_leaf(const Json& v, const std::string& field, const std::vector<int>& index, int depth) {
  if (v.is_number()) {
    const double x = v.as_number();
    if (x == std::floor(x) && x >= -2147483648.0 && x <= 2147483647.0) return static_cast<int>(x);
  }
  return read_int(v, path_of(field, index, depth));  // not a small integer: let it explain
}

double number_leaf(const Json& v, const std::string& field, const std::vector<int>& index, int depth) {
  if (v.is_number()) return v.as_number();
  return read_number(v, path_of(field, index, depth));
}
}  // namespace

std::vector<int> read_int_tensor(const Json& v, const std::string& field, int rank, std::vector<int>& dims) {
  dims.assign(rank, -1);
  std::vector<std::string> first(rank);
  std::vector<int> index(rank, 0);
  std::vector<int> out;
  read_tensor(v, field, index, 0, rank, dims, first, out, int_leaf);
  return out;
}

std::vector<double> read_number_tensor(const Json& v, const std::string& field, int rank,
                                       std::vector<int>& dims) {
  dims.assign(rank, -1);
  std::vector<std::string> first(rank);
  std::vector<int> index(rank, 0);
  std::vector<double> out;
  read_tensor(v, field, index, 0, rank, dims, first, out, number_leaf);
  return out;
}

int read_choice(const Json& v, const std::string& field, const std::vector<std::string_view>& choices) {
  std::string list;
  for (size_t i = 0; i < choices.size(); ++i) list += (i ? ", " : "") + std::string("\"") + std::string(choices[i]) + "\"";
  if (!v.is_string()) expected(v, field, "one of " + list);
  for (size_t i = 0; i < choices.size(); ++i)
    if (v.as_string() == choices[i]) return static_cast<int>(i);
  throw InputError(field, "is \"" + v.as_string() + "\"; expected one of " + list);
}

Json int_list(const std::vector<int>& v) {
  Json a = Json::array();
  a.items().reserve(v.size());
  for (int x : v) a.push(Json::number(x));
  return a;
}

namespace {
template <typename T>
Json rows_of(const std::vector<T>& flat, int rows, int cols) {
  Json out = Json::array();
  for (int r = 0; r < rows; ++r) {
    Json row = Json::array();
    row.items().reserve(cols);
    for (int c = 0; c < cols; ++c) row.push(Json::number(flat[static_cast<size_t>(r) * cols + c]));
    out.push(std::move(row));
  }
  return out;
}
}  // namespace

Json int_rows(const std::vector<int>& flat, int rows, int cols) { return rows_of(flat, rows, cols); }
Json number_rows(const std::vector<double>& flat, int rows, int cols) { return rows_of(flat, rows, cols); }

Json number_cube(const std::vector<double>& flat, int a, int b, int c) {
  Json out = Json::array();
  for (int i = 0; i < a; ++i) {
    std::vector<double> slice(flat.begin() + static_cast<long>(i) * b * c,
                              flat.begin() + static_cast<long>(i + 1) * b * c);
    out.push(number_rows(slice, b, c));
  }
  return out;
}

}  // namespace masklab
