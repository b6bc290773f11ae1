// fuzz_doctor_text.cpp — the libFuzzer target of the batch doctor on pasted text as it is
// (printed_batch.hpp's reader and every check after it), as the CLI and the doctor page call it.
#include <cstddef>
#include <cstdint>

#include "fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  masklab::fuzz::run_doctor_text(data, size);
  return 0;
}
