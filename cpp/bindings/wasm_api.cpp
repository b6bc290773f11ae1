// The WebAssembly boundary every module shares: a plain C ABI over the core's JSON commands.
//
// Deliberately thin, and without Embind: every call takes UTF-8 bytes in memory that JavaScript
// allocated with malloc, and hands back malloc'd memory that JavaScript frees. web/core/ is the
// only caller (boundary.js); nothing else should call these. No handles outlive a call, and no
// C++ exception crosses: every answer is JSON, errors included. (Embind cost ~25 KB of wasm and
// ~20 KB of glue for two string calls.)
//
// Which commands answer is the module's choice (module_commands(), in core_module.cpp,
// chat_module.cpp or doctor_module.cpp): a command of another module is refused as unknown.
//
//   masklab_run(command, request, size, &answer_size)       -> answer JSON (malloc'd, NUL-ended)
//   masklab_bench_run(command, request, size, iterations)    -> ms for `iterations` calls, timed
//                                                               inside wasm (-1 if any call fails)
//   masklab_limits(&size)                                    -> {"max_request_bytes":…} JSON

#include "json.hpp"
#include "limits.hpp"
#include "wasm_boundary.hpp"

using masklab::wasm::answer_of;
using masklab::wasm::copy_out;
using masklab::wasm::module_commands;
using masklab::wasm::timed;

extern "C" {

EMSCRIPTEN_KEEPALIVE char* masklab_run(const char* command, const char* request, std::size_t request_size,
                                       std::size_t* answer_size) {
  return answer_of(
      [&] { return masklab::run_command(module_commands(), command, std::string_view(request, request_size)); },
      answer_size);
}

EMSCRIPTEN_KEEPALIVE double masklab_bench_run(const char* command, const char* request, std::size_t request_size,
                                              int iterations) {
  return timed([&] { return masklab::run_command(module_commands(), command, std::string_view(request, request_size)); },
               iterations);
}

EMSCRIPTEN_KEEPALIVE char* masklab_limits(std::size_t* size) {
  masklab::Json limits = masklab::Json::object();
  limits.set("max_request_bytes", masklab::Json::number(static_cast<double>(masklab::kMaxRequestBytes)))
      .set("max_loss_values", masklab::Json::number(static_cast<double>(masklab::kMaxLossValues)))
      .set("max_gradient_values", masklab::Json::number(static_cast<double>(masklab::kMaxGradientValues)));
  return copy_out(masklab::to_json(limits), size);
}

}  // extern "C"
