// The WebAssembly boundary: a plain C ABI over the core (masklab_core.mjs + .wasm).
//
// Deliberately thin, and without Embind: every call takes UTF-8 bytes and flat buffers in
// memory that JavaScript allocated with malloc, and hands back malloc'd memory that JavaScript
// frees. web/core/masklab.js is the only caller and the one JavaScript face of the core; nothing
// else should call these. No handles outlive a call, and no C++ exception crosses: every answer
// is JSON, errors included. (Embind cost ~25 KB of wasm and ~20 KB of glue for two string calls.)
//
//   masklab_run(command, request, size, &answer_size)       -> answer JSON (malloc'd, NUL-ended)
//   masklab_run_tensors(command, options, size, inputs, n)   -> masklab_result* (typed-array path,
//                                                               tensor_api.hpp); free with
//                                                               masklab_free_result
//   masklab_doctor(text, size, options, size, &answer_size)  -> the batch doctor (api.hpp run_doctor)
//   masklab_bench_doctor(text, size, options, size, n)       -> like masklab_bench_run, for doctor
//   masklab_bench_run(command, request, size, iterations)    -> ms for `iterations` calls, timed
//                                                               inside wasm (-1 if any call fails)
//   masklab_limits(&size)                                    -> {"max_request_bytes":…} JSON

#include "api.hpp"
#include "json.hpp"
#include "limits.hpp"
#include "tensor_api.hpp"

#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

// A tensor as JavaScript lays it out in wasm memory (32 bytes; offsets in web/core/masklab.js).
struct masklab_tensor {
  const char* name;   // 0: NUL-terminated UTF-8
  std::int32_t dtype; // 4: masklab::DType
  std::int32_t rank;  // 8: 1..4
  std::int32_t shape[4];  // 12
  const void* data;   // 28
};
static_assert(sizeof(void*) != 4 || sizeof(masklab_tensor) == 32, "masklab.js reads this layout");

// An answer of the typed-array path (24 bytes).
struct masklab_result {
  char* json;              // 0: NUL-terminated UTF-8
  std::uint32_t json_size; // 4
  std::int32_t n_tensors;  // 8
  masklab_tensor* tensors; // 12: n_tensors entries, data owned by `owner`
  void* owner;             // 16: the masklab::TensorAnswer holding the buffers
  std::int32_t reserved;   // 20
};

namespace {

// A malloc'd copy of `text` with a NUL after it, for JavaScript to read and free.
char* copy_out(std::string_view text, std::size_t* size) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  if (size) *size = text.size();
  return out;
}

char* error_out(std::string_view message, std::size_t* size) {
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

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE char* masklab_run(const char* command, const char* request, std::size_t request_size,
                                       std::size_t* answer_size) {
  return answer_of([&] { return masklab::run_command(command, std::string_view(request, request_size)); }, answer_size);
}

EMSCRIPTEN_KEEPALIVE masklab_result* masklab_run_tensors(const char* command, const char* options, std::size_t options_size,
                                                         const masklab_tensor* inputs, int n_inputs) {
  auto* result = static_cast<masklab_result*>(std::calloc(1, sizeof(masklab_result)));
  if (result == nullptr) return nullptr;
  try {
    std::vector<masklab::TensorIn> in(static_cast<std::size_t>(n_inputs < 0 ? 0 : n_inputs));
    for (std::size_t i = 0; i < in.size(); ++i) {
      const masklab_tensor& t = inputs[i];
      in[i].name = t.name ? t.name : "";
      in[i].dtype = static_cast<masklab::DType>(t.dtype);
      in[i].data = t.data;
      std::size_t count = 1;
      for (int d = 0; d < t.rank && d < 4; ++d) {
        in[i].shape.push_back(t.shape[d]);
        count *= static_cast<std::size_t>(t.shape[d] < 0 ? 0 : t.shape[d]);
      }
      in[i].count = count;
    }
    auto* answer = new masklab::TensorAnswer(
        masklab::run_tensor_command(command, std::string_view(options, options_size), in));
    std::size_t size = 0;
    result->json = copy_out(answer->answer.json, &size);
    result->json_size = static_cast<std::uint32_t>(size);
    result->owner = answer;
    result->n_tensors = static_cast<std::int32_t>(answer->tensors.size());
    result->tensors = static_cast<masklab_tensor*>(std::calloc(answer->tensors.size() + 1, sizeof(masklab_tensor)));
    for (std::size_t i = 0; i < answer->tensors.size(); ++i) {
      const masklab::TensorOut& t = answer->tensors[i];
      masklab_tensor& d = result->tensors[i];
      d.name = t.name.c_str();
      d.dtype = static_cast<std::int32_t>(t.dtype);
      d.rank = static_cast<std::int32_t>(t.shape.size());
      for (std::size_t k = 0; k < t.shape.size() && k < 4; ++k) d.shape[k] = t.shape[k];
      d.data = t.data();
    }
  } catch (const std::exception& e) {
    std::size_t size = 0;
    result->json = error_out(e.what(), &size);
    result->json_size = static_cast<std::uint32_t>(size);
  }
  return result;
}

EMSCRIPTEN_KEEPALIVE void masklab_free_result(masklab_result* result) {
  if (result == nullptr) return;
  std::free(result->json);
  std::free(result->tensors);
  delete static_cast<masklab::TensorAnswer*>(result->owner);
  std::free(result);
}

EMSCRIPTEN_KEEPALIVE char* masklab_doctor(const char* text, std::size_t text_size, const char* options,
                                          std::size_t options_size, std::size_t* answer_size) {
  return answer_of([&] { return masklab::run_doctor({text, text_size}, {options, options_size}); }, answer_size);
}

EMSCRIPTEN_KEEPALIVE double masklab_bench_run(const char* command, const char* request, std::size_t request_size,
                                              int iterations) {
  return timed([&] { return masklab::run_command(command, std::string_view(request, request_size)); }, iterations);
}

EMSCRIPTEN_KEEPALIVE double masklab_bench_doctor(const char* text, std::size_t text_size, const char* options,
                                                 std::size_t options_size, int iterations) {
  return timed([&] { return masklab::run_doctor({text, text_size}, {options, options_size}); }, iterations);
}

EMSCRIPTEN_KEEPALIVE char* masklab_limits(std::size_t* size) {
  masklab::Json limits = masklab::Json::object();
  limits.set("max_request_bytes", masklab::Json::number(static_cast<double>(masklab::kMaxRequestBytes)))
      .set("max_loss_values", masklab::Json::number(static_cast<double>(masklab::kMaxLossValues)))
      .set("max_gradient_values", masklab::Json::number(static_cast<double>(masklab::kMaxGradientValues)));
  return copy_out(masklab::to_json(limits), size);
}

}  // extern "C"
