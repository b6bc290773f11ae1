// The doctor module (masklab_doctor.mjs + .wasm): the batch doctor, as a JSON command over
// wasm_api.cpp and on pasted text as it is. Loaded by the doctor page only.
//
//   masklab_doctor(text, size, options, size, &answer_size)  -> the batch doctor (api.hpp run_doctor)
//   masklab_bench_doctor(text, size, options, size, n)       -> like masklab_bench_run, for doctor

#include "wasm_boundary.hpp"

masklab::Commands masklab::wasm::module_commands() { return doctor_commands(); }

using masklab::wasm::answer_of;
using masklab::wasm::timed;

extern "C" {

EMSCRIPTEN_KEEPALIVE char* masklab_doctor(const char* text, std::size_t text_size, const char* options,
                                          std::size_t options_size, std::size_t* answer_size) {
  return answer_of([&] { return masklab::run_doctor({text, text_size}, {options, options_size}); }, answer_size);
}

EMSCRIPTEN_KEEPALIVE double masklab_bench_doctor(const char* text, std::size_t text_size, const char* options,
                                                 std::size_t options_size, int iterations) {
  return timed([&] { return masklab::run_doctor({text, text_size}, {options, options_size}); }, iterations);
}

}  // extern "C"
