// fuzz_tensors.cpp — the libFuzzer target of the typed-array path (tensor_api.hpp). The input's
// bytes choose the command, the JSON options, the claimed shapes and the tensors' contents (any
// bit pattern: NaN, inf, huge ids); the claimed shape and the bytes actually given may disagree,
// which the core must refuse without reading past what it was given. Besides fuzz_target.hpp's
// checks, every output tensor must hold exactly the values its shape says.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_target.hpp"
#include "tensor_api.hpp"

namespace {

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::string text(std::size_t n) {
    n = std::min(n, size_ - at_);
    std::string s(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return s;
  }
  // Up to `want` values of T from the remaining bytes (fewer if the input runs out).
  template <typename T>
  std::vector<T> values(std::size_t want) {
    const std::size_t n = std::min(want, (size_ - at_) / sizeof(T));
    std::vector<T> out(n);
    if (n) std::memcpy(out.data(), data_ + at_, n * sizeof(T));
    at_ += n * sizeof(T);
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

template <typename T>
masklab::TensorIn input(const char* name, masklab::DType dtype, std::vector<int> shape, const std::vector<T>& v) {
  return masklab::TensorIn{name, dtype, std::move(shape), v.data(), v.size()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using masklab::DType;
  Bytes in(data, size);
  const bool loss = in.byte() % 2 == 0;
  const std::string options = in.text(in.byte());
  masklab::TensorAnswer answer;
  if (loss) {
    const int B = in.byte() % 5, T = in.byte() % 9, V = in.byte() % 9;
    const bool f32 = in.byte() % 2;
    const std::size_t cells = static_cast<std::size_t>(B) * T * V;
    std::vector<float> lf;
    std::vector<double> ld;
    if (f32) lf = in.values<float>(cells);
    else ld = in.values<double>(cells);
    std::vector<std::int32_t> labels = in.values<std::int32_t>(static_cast<std::size_t>(B) * T);
    std::vector<masklab::TensorIn> inputs = {
        f32 ? input("logits", DType::Float32, {B, T, V}, lf) : input("logits", DType::Float64, {B, T, V}, ld),
        input("labels", DType::Int32, {B, T}, labels)};
    answer = masklab::run_tensor_command("loss", options, inputs);
  } else {
    std::vector<std::int32_t> lengths;
    const int rows = in.byte() % 9;
    std::size_t total = 0;
    for (int r = 0; r < rows; ++r) {
      lengths.push_back(in.byte() % 17);
      total += static_cast<std::size_t>(lengths.back());
    }
    const std::uint8_t parts = in.byte();
    std::vector<std::int32_t> ids = in.values<std::int32_t>(total);
    std::vector<std::vector<std::int32_t>> extra;
    std::vector<masklab::TensorIn> inputs = {input("input_ids", DType::Int32, {static_cast<int>(ids.size())}, ids),
                                             input("lengths", DType::Int32, {rows}, lengths)};
    extra.reserve(3);
    const char* names[] = {"labels", "completion_mask", "assistant_masks"};
    for (int k = 0; k < 3; ++k)
      if (parts & (1 << k)) {
        extra.push_back(in.values<std::int32_t>(total));
        inputs.push_back(input(names[k], DType::Int32, {static_cast<int>(extra.back().size())}, extra.back()));
      }
    answer = masklab::run_tensor_command("collate", options, inputs);
  }
  masklab::fuzz::check_answer(loss ? "typed loss" : "typed collate", answer.answer);
  for (const masklab::TensorOut& t : answer.tensors) {
    std::size_t n = 1;
    for (int d : t.shape) n *= static_cast<std::size_t>(d);
    if (n != t.count()) masklab::fuzz::fuzz_fail("typed", "a tensor's values disagree with its shape", t.name);
  }
  return 0;
}
