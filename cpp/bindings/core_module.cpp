// The core module (masklab_core.mjs + .wasm): the batch commands (commands.hpp batch_commands)
// over wasm_api.cpp, and the typed-array path (tensor_api.hpp) that takes big tensors as flat
// buffers. What the exercise, grid, dilution, lab and home pages and the embeds load.
//
//   masklab_run_tensors(command, options, size, inputs, n)   -> masklab_result* (typed-array path,
//                                                               tensor_api.hpp); free with
//                                                               masklab_free_result

#include "tensor_api.hpp"
#include "wasm_boundary.hpp"

#include <cstdint>
#include <vector>

masklab::Commands masklab::wasm::module_commands() { return batch_commands(); }

// A tensor as JavaScript lays it out in wasm memory (32 bytes; offsets in web/core/boundary.js).
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

using masklab::wasm::copy_out;
using masklab::wasm::error_out;

extern "C" {

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

}  // extern "C"
