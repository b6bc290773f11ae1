// tensor_api.cpp — see tensor_api.hpp.
#include "tensor_api.hpp"

#include <new>
#include <string>
#include <utility>

#include "collate.hpp"
#include "code_size.hpp"
#include "input_error.hpp"
#include "json.hpp"
#include "limits.hpp"
#include "loss.hpp"
#include "requests.hpp"

namespace masklab {

const void* TensorOut::data() const {
  switch (dtype) {
    case DType::Int32: return i32.data();
    case DType::Float32: return f32.data();
    case DType::Float64: return f64.data();
    case DType::Uint8: return u8.data();
  }
  return nullptr;
}

std::size_t TensorOut::count() const {
  switch (dtype) {
    case DType::Int32: return i32.size();
    case DType::Float32: return f32.size();
    case DType::Float64: return f64.size();
    case DType::Uint8: return u8.size();
  }
  return 0;
}

namespace {

const char* dtype_name(DType d) {
  switch (d) {
    case DType::Int32: return "int32";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Uint8: return "uint8";
  }
  return "?";
}

MASKLAB_SMALL_CODE std::string shape_of(const std::vector<int>& shape) {
  std::string s;
  for (int d : shape) s += "[" + std::to_string(d) + "]";
  return s;
}

// Compiled for size (code_size.hpp; this file is -Os in wasm too): these run once per request;
// the work is in what they call (collate, cross_entropy's kernels, the JSON writer).

// The inputs by name: each known name at most once, nothing unknown, shapes and counts agreeing.
class Inputs {
 public:
  MASKLAB_SMALL_CODE Inputs(const std::vector<TensorIn>& inputs, std::vector<std::string_view> known) : inputs_(inputs) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const TensorIn& t = inputs[i];
      bool ok = false;
      for (auto k : known) ok = ok || k == t.name;
      if (!ok) {
        std::string list;
        for (size_t j = 0; j < known.size(); ++j) list += (j ? ", " : "") + std::string(known[j]);
        throw InputError(t.name.empty() ? "tensors" : t.name, "is not a tensor here; expected one of: " + list);
      }
      for (size_t j = 0; j < i; ++j)
        if (inputs[j].name == t.name) throw InputError(t.name, "is given twice");
      std::uint64_t n = 1;
      for (int d : t.shape) {
        if (d < 0) throw InputError(t.name, "has a negative dimension in shape " + shape_of(t.shape));
        n = product({static_cast<long long>(n), d});
      }
      if (t.shape.empty() || n != t.count || (t.count > 0 && t.data == nullptr))
        throw InputError(t.name, "has shape " + shape_of(t.shape) + " but holds " + std::to_string(t.count) + " values");
    }
  }

  // The tensor called `name` with `rank` dimensions and one of the dtypes; nullptr when absent.
  MASKLAB_SMALL_CODE const TensorIn* get(std::string_view name, int rank, std::initializer_list<DType> dtypes, bool required) const {
    for (const TensorIn& t : inputs_) {
      if (t.name != name) continue;
      if (static_cast<int>(t.shape.size()) != rank)
        throw InputError(t.name, "has shape " + shape_of(t.shape) + "; expected " + std::to_string(rank) +
                                     (rank == 1 ? " dimension" : " dimensions"));
      bool ok = false;
      std::string list;
      for (DType d : dtypes) {
        ok = ok || d == t.dtype;
        list += (list.empty() ? "" : " or ") + std::string(dtype_name(d));
      }
      if (!ok) throw InputError(t.name, std::string("is ") + dtype_name(t.dtype) + "; expected " + list);
      return &t;
    }
    if (required) throw InputError(std::string(name), "is missing; give it as a typed array");
    return nullptr;
  }

 private:
  const std::vector<TensorIn>& inputs_;
};

std::vector<int> ints(const TensorIn& t) {
  const auto* p = static_cast<const std::int32_t*>(t.data);
  return std::vector<int>(p, p + t.count);
}

TensorOut int_tensor(std::string name, std::vector<int> shape, std::vector<std::int32_t> values) {
  TensorOut t;
  t.name = std::move(name);
  t.dtype = DType::Int32;
  t.shape = std::move(shape);
  t.i32 = std::move(values);
  return t;
}

MASKLAB_SMALL_CODE Json run_loss(const Json& options, const Inputs& in, std::vector<TensorOut>& out) {
  const TensorIn& logits = *in.get("logits", 3, {DType::Float32, DType::Float64}, true);
  const TensorIn& labels = *in.get("labels", 2, {DType::Int32}, true);
  LossTensors t;
  t.B = logits.shape[0];
  t.T = logits.shape[1];
  t.V = logits.shape[2];
  if (labels.shape[0] != t.B || labels.shape[1] != t.T)
    throw InputError("labels", "has shape " + shape_of(labels.shape) + " but logits has [" + std::to_string(t.B) + "][" +
                                   std::to_string(t.T) + "]");
  // The shape is bounded before a value is read. The loss reads the caller's buffer in place
  // (float32 widened a row at a time) instead of a double copy of all B × T × V values.
  limit_request("logits", "values (B × T × V = " + shape_text({t.B, t.T, t.V}) + ")", product({t.B, t.T, t.V}),
                kMaxLossValues);
  t.borrowed.size = logits.count;
  if (logits.dtype == DType::Float32) t.borrowed.f32 = static_cast<const float*>(logits.data);
  else t.borrowed.f64 = static_cast<const double*>(logits.data);
  t.labels = ints(labels);

  LossInput input = decode_loss(options, &t);
  LossResult result = cross_entropy(input);

  // The gradient travels as a tensor; the JSON says "gradient": null (and why) only when there is none.
  Json answer = encode_loss(result, input, result.gradient.empty(), false);
  TensorOut per_token;
  per_token.name = "per_token";
  per_token.dtype = DType::Float64;
  per_token.shape = {input.B, input.T};
  per_token.f64 = std::move(result.per_token);
  out.push_back(std::move(per_token));
  out.push_back(int_tensor("targets", {input.B, input.T}, std::move(result.targets)));
  if (input.gradient) {
    if (!result.gradient.empty()) {  // else the JSON has "gradient": null, and the loss says why
      TensorOut g;
      g.name = "gradient";
      g.dtype = logits.dtype;
      g.shape = {input.B, input.T, input.V};
      if (logits.dtype == DType::Float32) g.f32.assign(result.gradient.begin(), result.gradient.end());
      else g.f64 = std::move(result.gradient);
      out.push_back(std::move(g));
    }
  }
  return answer;
}

MASKLAB_SMALL_CODE Json run_collate(const Json& options, const Inputs& in, std::vector<TensorOut>& out) {
  const TensorIn& ids = *in.get("input_ids", 1, {DType::Int32}, true);
  const TensorIn& lengths = *in.get("lengths", 1, {DType::Int32}, true);
  const std::vector<int> n = ints(lengths);
  std::uint64_t total = 0;
  for (size_t b = 0; b < n.size(); ++b) {
    if (n[b] < 0) throw InputError("lengths[" + std::to_string(b) + "]", "is " + std::to_string(n[b]) + "; a row has >= 0 tokens");
    total += static_cast<std::uint64_t>(n[b]);
  }
  if (total != ids.count)
    throw InputError("lengths", "add up to " + std::to_string(total) + " tokens but input_ids holds " + std::to_string(ids.count));
  std::vector<const TensorIn*> parallel;
  for (const char* name : {"labels", "completion_mask", "assistant_masks"}) {
    const TensorIn* t = in.get(name, 1, {DType::Int32}, false);
    if (t && t->count != ids.count)
      throw InputError(name, "holds " + std::to_string(t->count) + " values but input_ids holds " + std::to_string(ids.count));
    parallel.push_back(t);
  }
  std::vector<Feature> features(n.size());
  size_t at = 0;
  for (size_t b = 0; b < n.size(); ++b) {
    auto slice = [&](const TensorIn& t) {
      const auto* p = static_cast<const std::int32_t*>(t.data) + at;
      return std::vector<int>(p, p + n[b]);
    };
    features[b].input_ids = slice(ids);
    if (parallel[0]) features[b].labels = slice(*parallel[0]);
    if (parallel[1]) features[b].completion_mask = slice(*parallel[1]);
    if (parallel[2]) features[b].assistant_masks = slice(*parallel[2]);
    at += static_cast<size_t>(n[b]);
  }

  CollateRequest request = decode_collate(options, &features);
  Batch batch = collate(std::move(request.features), request.options);
  Json answer = encode_batch(batch, request.options, false);
  Json names = Json::array();
  for (int r = 0; r <= static_cast<int>(IgnoreReason::User); ++r) names.push(Json::string(reason_name(static_cast<IgnoreReason>(r))));
  answer.set("label_reason_names", std::move(names));

  const std::vector<int> bt = {batch.B, batch.T};
  out.push_back(int_tensor("input_ids", bt, std::move(batch.input_ids)));
  if (batch.has_attention_mask) out.push_back(int_tensor("attention_mask", bt, std::move(batch.attention_mask)));
  const std::vector<int> bl = {batch.B, batch.L};  // labels have their own length (seq2seq)
  out.push_back(int_tensor("labels", bl, std::move(batch.labels)));
  out.push_back(int_tensor("position_ids", bt, std::move(batch.position_ids)));
  TensorOut is_pad;
  is_pad.name = "is_pad";
  is_pad.dtype = DType::Uint8;
  is_pad.shape = bt;
  is_pad.u8 = std::move(batch.is_pad);
  out.push_back(std::move(is_pad));
  TensorOut reasons;
  reasons.name = "label_reasons";
  reasons.dtype = DType::Uint8;
  reasons.shape = bl;
  reasons.u8.resize(batch.label_reasons.size());  // written in place: this function is compiled for size
  for (size_t i = 0; i < reasons.u8.size(); ++i) reasons.u8[i] = static_cast<std::uint8_t>(batch.label_reasons[i]);
  out.push_back(std::move(reasons));
  return answer;
}

}  // namespace

TensorAnswer run_tensor_command(std::string_view command, std::string_view options_json,
                                const std::vector<TensorIn>& inputs) {
  TensorAnswer r;
  try {
    limit_request("json", "bytes", options_json.size(), kMaxRequestBytes);
    const Json options = parse_json(options_json, JsonLimits{kDefaultMaxValues, "the request"});
    Json answer;
    if (command == "loss") answer = run_loss(options, Inputs(inputs, {"logits", "labels"}), r.tensors);
    else if (command == "collate")
      answer = run_collate(options, Inputs(inputs, {"input_ids", "lengths", "labels", "completion_mask", "assistant_masks"}),
                           r.tensors);
    else
      throw InputError("command", "\"" + std::string(command) + "\" has no typed-array path; expected loss or collate");
    r.answer.ok = true;
    r.answer.json = to_json(answer);
  } catch (const InputError& e) {
    r.tensors.clear();
    r.answer = error_result(e.field, e.message);
  } catch (const std::bad_alloc&) {
    r.tensors.clear();
    r.answer = error_result("json", "the request is too large to process in memory");
  } catch (const std::exception& e) {
    r.tensors.clear();
    r.answer = error_result("", std::string("internal error: ") + e.what());
  }
  return r;
}

}  // namespace masklab
