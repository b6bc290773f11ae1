// json_fields.hpp — reading typed fields out of a parsed JSON request, with errors that name
// the exact field ("features[1].input_ids[3]") and say what was expected; and writing flat
// row-major buffers back as nested arrays.
//
// Not here: what the fields mean (requests.cpp) or any rule of collation or loss.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json.hpp"

namespace masklab {

// A JSON object being read. Keys not in `allowed` are reported, so a typo such as
// "paddingside" fails loudly instead of being ignored.
class ObjectReader {
 public:
  ObjectReader(const Json& object, std::string path, std::vector<std::string_view> allowed);
  const Json* get(std::string_view key) const;  // nullptr when absent or null
  std::string path(std::string_view key) const;  // "features[0].labels" style
  const std::string& path() const { return path_; }

 private:
  const Json& object_;
  std::string path_;
};

int read_int(const Json& v, const std::string& field);
double read_number(const Json& v, const std::string& field);  // NaN/inf allowed through; callers check
bool read_bool(const Json& v, const std::string& field);
std::string read_string(const Json& v, const std::string& field);
std::vector<int> read_int_list(const Json& v, const std::string& field);

// A rectangular nested array, flattened row-major. dims receives its extents.
// Ragged rows fail with "x[2] has 5 entries but x[0] has 6".
std::vector<int> read_int_tensor(const Json& v, const std::string& field, int rank, std::vector<int>& dims);
std::vector<double> read_number_tensor(const Json& v, const std::string& field, int rank,
                                       std::vector<int>& dims);

// Picks one of `choices` by name; the error lists them.
int read_choice(const Json& v, const std::string& field, const std::vector<std::string_view>& choices);

// Writers: flat row-major buffer -> nested JSON arrays.
Json int_rows(const std::vector<int>& flat, int rows, int cols);
Json number_rows(const std::vector<double>& flat, int rows, int cols);
Json number_cube(const std::vector<double>& flat, int a, int b, int c);
Json int_list(const std::vector<int>& v);

}  // namespace masklab
