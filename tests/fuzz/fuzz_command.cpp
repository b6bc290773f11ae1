// fuzz_command.cpp — the libFuzzer target of one run_command command, chosen at build time:
// CMakeLists.txt builds fuzz_<command> from this file for every entry of MASKLAB_FUZZ_COMMANDS
// (-DMASKLAB_FUZZ_COMMAND="loss"), so a new command is one more word in that list.
#include <cstddef>
#include <cstdint>

#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  masklab::fuzz::run_one(MASKLAB_FUZZ_COMMAND, data, size);
  return 0;
}
