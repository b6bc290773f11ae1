// wasm_boundary.hpp — what every WebAssembly module's C ABI shares (cpp/bindings/*_module.cpp,
// wasm_api.cpp): answers copied out as malloc'd UTF-8 for JavaScript to read and free, C++
// exceptions turned into error answers before they could cross, and calls timed inside wasm.
//
// Each module links wasm_api.cpp (masklab_run, masklab_bench_run, masklab_limits over its own
// commands) and one *_module.cpp that names those commands and adds the module's other exports.
#pragma once

#include "api.hpp"
#include "commands.hpp"

#include <emscripten/emscripten.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>

namespace masklab::wasm {

// The commands this module answers (defined by its *_module.cpp).
Commands module_commands();

// A malloc'd copy of `text` with a NUL after it, for JavaScript to read and free.
inline char* copy_out(std::string_view text, std::size_t* size) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  if (size) *size = text.size();
  return out;
}

inline char* error_out(std::string_view message, std::size_t* size) {
  return copy_out(masklab::error_result("internal", std::string(message)).json, size);
}

// The answer of one core call as malloc'd JSON, whatever escapes it turned into an error answer.
template <class Call>
char* answer_of(Call call, std::size_t* answer_size) {
  try {
    return copy_out(call().json, answer_size);
  } catch (const std::exception& e) {
    return error_out(e.what(), answer_size);
  } catch (...) {
    return error_out("unexpected failure in the core", answer_size);
  }
}

// Milliseconds for `iterations` calls, timed inside wasm; -1 if any call fails, so a benchmark
// never reports the speed of an error path.
template <class Call>
double timed(Call call, int iterations) {
  try {
    std::size_t checksum = 0;  // keeps the calls observable
    const double start = emscripten_get_now();
    for (int i = 0; i < iterations; ++i) {
      const masklab::ApiResult result = call();
      if (!result.ok) return -1.0;
      checksum += result.json.size();
    }
    const double elapsed = emscripten_get_now() - start;
    return checksum == 0 && iterations > 0 ? -1.0 : elapsed;
  } catch (...) {
    return -1.0;
  }
}

}  // namespace masklab::wasm
