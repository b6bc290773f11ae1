// The Embind layer: turns the core into the browser's WebAssembly module (masklab_core.mjs).
//
// Deliberately thin. JSON strings cross the boundary, nothing else — no handles, no classes, no
// .delete() for JS to remember — and every answer is JSON, errors included, so JS never sees a
// C++ exception. The core itself has no Emscripten include; this is the only file that does.
//
//   run(command, json)                 -> answer JSON (or {"error":{"field","message"}})
//   benchRun(command, json, iterations) -> total milliseconds for `iterations` calls, timed inside
//                                          wasm so the JS<->wasm string copies are excluded
//   doctor(text, optionsJson)          -> the batch doctor on pasted text as it is (api.hpp)
//   benchDoctor(text, optionsJson, iterations) -> like benchRun, for doctor

#include "api.hpp"

#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <exception>
#include <string>
#include <string_view>

namespace {

// Minimal JSON string escaping for the binding's own error answers (the core writes all others).
std::string json_string(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string error_json(std::string_view field, std::string_view message) {
  return "{\"error\":{\"field\":" + json_string(field) + ",\"message\":" + json_string(message) + "}}";
}

// The answer of one core call, whatever escapes it turned into an error answer.
template <class Call>
std::string answer(Call call) {
  try {
    return call().json;
  } catch (const std::exception& e) {
    return error_json("internal", e.what());
  } catch (...) {
    return error_json("internal", "unexpected failure in the core");
  }
}

// Milliseconds for `iterations` calls; -1 if any call fails, so a benchmark never reports the
// speed of an error path.
template <class Call>
double timed(Call call, int iterations) {
  try {
    size_t checksum = 0;  // keeps the calls observable
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

std::string run(std::string command, std::string json) {
  return answer([&] { return masklab::run_command(command, json); });
}

double bench_run(std::string command, std::string json, int iterations) {
  return timed([&] { return masklab::run_command(command, json); }, iterations);
}

std::string doctor(std::string text, std::string options) {
  return answer([&] { return masklab::run_doctor(text, options); });
}

double bench_doctor(std::string text, std::string options, int iterations) {
  return timed([&] { return masklab::run_doctor(text, options); }, iterations);
}

}  // namespace

EMSCRIPTEN_BINDINGS(masklab) {
  emscripten::function("run", &run);
  emscripten::function("benchRun", &bench_run);
  emscripten::function("doctor", &doctor);
  emscripten::function("benchDoctor", &bench_doctor);
}
