// fuzz_function.cpp — a libFuzzer target for a parser that is not a run_command command, chosen at
// build time: masklab_fuzz_function(NAME HEADER CALL) in CMakeLists.txt compiles this file with
// -DMASKLAB_FUZZ_INCLUDE="HEADER" -DMASKLAB_FUZZ_CALL=CALL. CALL takes the input as a
// std::string_view and may throw InputError for bad input (that is an answer, not a finding);
// anything else escaping it, or a crash, is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include MASKLAB_FUZZ_INCLUDE
#include "input_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)MASKLAB_FUZZ_CALL(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const masklab::InputError&) {
  }
  return 0;
}
