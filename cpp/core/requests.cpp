// requests.cpp — see requests.hpp.
#include "requests.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "input_error.hpp"
#include "json_fields.hpp"
#include "limits.hpp"
#include "tiny_model.hpp"
#include "tokenizer.hpp"

namespace masklab {

namespace {

const std::vector<std::string_view> kCollateFields = {
    "features", "pad_token_id", "eos_token_id", "vocab_size", "padding", "max_length",
    "pad_to_multiple_of", "padding_side", "truncation", "truncation_side", "attention_mask_policy",
    "label_policy", "label_pad_token_id", "packing", "position_ids", "shift"};

Feature decode_feature(const Json& v, const std::string& path) {
  // Features from a real pipeline carry more keys (attention_mask, token_type_ids, ...);
  // only the ones the collator reads are decoded, the rest are left alone.
  if (!v.is_object()) throw InputError(path, std::string("expected an object with input_ids, got ") + Json::describe(v.type()));
  Feature f;
  const Json* ids = v.find("input_ids");
  if (!ids || ids->is_null()) throw InputError(path + ".input_ids", "is missing");
  f.input_ids = read_int_list(*ids, path + ".input_ids");
  for (auto [key, slot] : {std::pair{"labels", &f.labels}, std::pair{"attention_mask", &f.attention_mask},
                           std::pair{"completion_mask", &f.completion_mask},
                           std::pair{"assistant_masks", &f.assistant_masks}, std::pair{"seq_lengths", &f.seq_lengths}}) {
    const Json* x = v.find(key);
    if (x && !x->is_null()) *slot = read_int_list(*x, path + "." + key);
  }
  return f;
}

// Options shared by collate and inspect; `r` must allow kCollateFields. pad_token_id may be
// absent: collate asks for it only where a pad is written (docs/semantics.md §2.5).
CollateOptions decode_options(const ObjectReader& r) {
  CollateOptions o;
  if (const Json* v = r.get("pad_token_id")) o.pad_token_id = read_int(*v, "pad_token_id");
  if (const Json* v = r.get("eos_token_id")) o.eos_token_id = read_int(*v, "eos_token_id");
  if (const Json* v = r.get("vocab_size")) o.vocab_size = read_int(*v, "vocab_size");
  if (const Json* v = r.get("padding"))
    o.padding = static_cast<Padding>(read_choice(*v, "padding", {"longest", "max_length", "do_not_pad"}));
  if (const Json* v = r.get("max_length")) o.max_length = read_int(*v, "max_length");
  if (const Json* v = r.get("pad_to_multiple_of")) o.pad_to_multiple_of = read_int(*v, "pad_to_multiple_of");
  if (const Json* v = r.get("padding_side"))
    o.padding_side = static_cast<Side>(read_choice(*v, "padding_side", {"right", "left"}));
  if (const Json* v = r.get("truncation")) o.truncation = read_bool(*v, "truncation");
  if (const Json* v = r.get("truncation_side"))
    o.truncation_side = static_cast<Side>(read_choice(*v, "truncation_side", {"right", "left"}));
  if (const Json* v = r.get("attention_mask_policy"))
    o.attention_mask_policy = static_cast<AttentionMaskPolicy>(
        read_choice(*v, "attention_mask_policy", {"from_lengths", "all_ones", "input_ids_ne_pad"}));
  if (const Json* v = r.get("label_policy"))
    o.label_policy = static_cast<LabelPolicy>(
        read_choice(*v, "label_policy", {"mask_padding", "input_ids", "mask_pad_id", "given"}));
  if (const Json* v = r.get("label_pad_token_id")) o.label_pad_token_id = read_int(*v, "label_pad_token_id");
  if (const Json* v = r.get("packing"))
    o.packing =
        static_cast<Packing>(read_choice(*v, "packing", {"none", "flatten", "concat_unsafe", "padding_free",
                                                         "padding_free_legacy"}));
  if (const Json* v = r.get("position_ids"))
    o.position_ids = static_cast<PositionPolicy>(read_choice(*v, "position_ids", {"arange", "from_mask"}));
  if (const Json* v = r.get("shift")) o.shift = read_bool(*v, "shift");
  return o;
}

std::vector<Feature> decode_features(const ObjectReader& r) {
  const Json* v = r.get("features");
  if (!v) throw InputError("features", "is missing; expected an array of {input_ids: [...]} objects");
  if (!v->is_array()) throw InputError("features", std::string("expected an array, got ") + Json::describe(v->type()));
  std::vector<Feature> out;
  for (size_t i = 0; i < v->items().size(); ++i)
    out.push_back(decode_feature(v->items()[i], "features[" + std::to_string(i) + "]"));
  return out;
}

LossInput decode_loss_fields(const Json* logits, const Json* labels, const std::string& prefix) {
  if (!logits) throw InputError(prefix + "logits", "is missing; expected [B][T][V] numbers");
  if (!labels) throw InputError(prefix + "labels", "is missing; expected [B][T] integers");
  LossInput in;
  std::vector<int> dims;
  in.logits = read_number_tensor(*logits, prefix + "logits", 3, dims);
  in.B = dims[0];
  in.T = dims[1];
  in.V = dims[2];
  limit_request(prefix + "logits", "values (B × T × V = " + shape_text({in.B, in.T, in.V}) + ")",
                product({in.B, in.T, in.V}), kMaxLossValues);
  std::vector<int> ldims;
  in.labels = read_int_tensor(*labels, prefix + "labels", 2, ldims);
  if (ldims[0] != in.B)
    throw InputError(prefix + "labels", "has " + std::to_string(ldims[0]) + " rows but logits has " + std::to_string(in.B));
  if (ldims[1] != in.T) {
    std::string hint = ldims[1] + 1 == in.T ? " — were the labels shifted already? Pass them aligned with "
                                             "input_ids; the loss shifts them"
                                           : "";
    throw InputError(prefix + "labels", "has " + std::to_string(ldims[1]) + " positions per row but logits has " +
                                            std::to_string(in.T) + hint);
  }
  return in;
}

LossInput loss_from_tensors(const ObjectReader& r, LossTensors&& t) {
  for (const char* key : {"logits", "labels"})
    if (r.get(key)) throw InputError(key, "is given as a typed array; leave it out of the JSON");
  limit_request("logits", "values (B × T × V = " + shape_text({t.B, t.T, t.V}) + ")", product({t.B, t.T, t.V}),
                kMaxLossValues);
  LossInput in;
  in.B = t.B;
  in.T = t.T;
  in.V = t.V;
  in.logits = std::move(t.logits);
  in.borrowed = t.borrowed;
  in.labels = std::move(t.labels);
  return in;
}

void decode_loss_options(const ObjectReader& r, LossInput& in) {
  if (const Json* v = r.get("shift")) in.shift = read_bool(*v, "shift");
  if (const Json* v = r.get("ignore_index")) in.ignore_index = read_int(*v, "ignore_index");
}

std::vector<std::pair<int, int>> decode_cells(const ObjectReader& r, const char* key) {
  std::vector<std::pair<int, int>> cells;
  const Json* v = r.get(key);
  if (!v) return cells;
  std::vector<int> dims;
  if (v->is_array() && v->items().empty()) return cells;
  auto flat = read_int_tensor(*v, key, 2, dims);
  if (dims[1] != 2) throw InputError(key, "expected a list of [row, position] pairs");
  for (size_t i = 0; i + 1 < flat.size(); i += 2) cells.emplace_back(flat[i], flat[i + 1]);
  return cells;
}

Json optional_number(const std::optional<double>& x) { return x ? Json::number(*x) : Json::null(); }

FullyMaskedRows decode_fully_masked_rows(const Json& v) {
  return static_cast<FullyMaskedRows>(read_choice(v, "fully_masked_rows", {"zeros", "nan"}));
}

// [a][b][c] like number_cube, except that the rows (i, j) listed are null: JSON has no NaN.
Json cube_with_null_rows(const std::vector<double>& flat, int a, int b, int c,
                         const std::vector<std::pair<int, int>>& null_rows) {
  std::vector<std::uint8_t> is_null(static_cast<size_t>(a) * b, 0);
  for (auto [i, j] : null_rows) is_null[static_cast<size_t>(i) * b + j] = 1;
  Json out = Json::array();
  for (int i = 0; i < a; ++i) {
    Json plane = Json::array();
    for (int j = 0; j < b; ++j) {
      const size_t row = static_cast<size_t>(i) * b + j;
      if (is_null[row]) {
        plane.push(Json::null());
        continue;
      }
      Json values = Json::array();
      for (int k = 0; k < c; ++k) values.push(Json::number(flat[row * c + k]));
      plane.push(std::move(values));
    }
    out.push(std::move(plane));
  }
  return out;
}

Reduction decode_reduction(const Json& v) {
  return static_cast<Reduction>(read_choice(
      v, "reduction", {"mean", "sum", "none", "per_example_mean", "sum_over_num_items", "masked_mean"}));
}

PerTokenLoss decode_per_token_loss(const Json& v) {
  return static_cast<PerTokenLoss>(read_choice(v, "per_token_loss", {"cross_entropy", "log_softmax_gather"}));
}

// The gradient's summary (always) and its values (when asked and finite). inspect leaves the
// values out: [B][T][V] of a grid-sized batch is far more than a page needs.
void encode_gradient(Json& out, const LossResult& r, const LossInput& in, bool with_values) {
  if (with_values) out.set("gradient", r.gradient.empty() ? Json::null() : number_cube(r.gradient, in.B, in.T, in.V));
  out.set("gradient_null_reason", r.gradient_null_reason.empty() ? Json::null() : Json::string(r.gradient_null_reason));
  out.set("gradient_nan_count", Json::number(r.gradient_nan_count));
  out.set("gradient_inf_count", Json::number(r.gradient_inf_count));
  out.set("gradient_max_abs", optional_number(r.gradient_max_abs));
  out.set("gradient_norm", optional_number(r.gradient_norm));
}

// The grid's row bound, checked before any row is tokenised or collated.
void check_inspect_rows(const char* field, size_t rows) {
  if (rows > static_cast<size_t>(kMaxInspectRows))
    throw InputError(field, "has " + std::to_string(rows) + " rows; the grid shows at most " +
                                std::to_string(kMaxInspectRows) + " (use the collate and loss commands for big batches)");
}

}  // namespace

CollateRequest decode_collate(const Json& request) { return decode_collate(request, nullptr); }

CollateRequest decode_collate(const Json& request, std::vector<Feature>* features) {
  ObjectReader r(request, "", kCollateFields);
  CollateRequest out;
  out.options = decode_options(r);
  if (features) {
    if (r.get("features")) throw InputError("features", "are given as typed arrays; leave them out of the JSON");
    out.features = std::move(*features);
  } else {
    out.features = decode_features(r);
  }
  return out;
}

LossInput decode_loss(const Json& request) { return decode_loss(request, nullptr); }

LossInput decode_loss(const Json& request, LossTensors* tensors) {
  ObjectReader r(request, "", {"logits", "labels", "shift", "ignore_index", "reduction", "num_items_in_batch", "gradient",
                               "per_token_loss"});
  LossInput in = tensors ? loss_from_tensors(r, std::move(*tensors)) : decode_loss_fields(r.get("logits"), r.get("labels"), "");
  decode_loss_options(r, in);
  if (const Json* v = r.get("reduction")) in.reduction = decode_reduction(*v);
  if (const Json* v = r.get("num_items_in_batch")) in.num_items_in_batch = read_number(*v, "num_items_in_batch");
  if (const Json* v = r.get("gradient")) in.gradient = read_bool(*v, "gradient");
  if (const Json* v = r.get("per_token_loss")) in.per_token_loss = decode_per_token_loss(*v);
  // A JSON gradient is printed number by number; the typed path hands it back as one buffer.
  if (in.gradient && !tensors)
    limit_answer("gradient", "gradient values (B × T × V)", in.logits.size(), kMaxGradientValues,
                 "; ask for the loss alone, or use the typed-array path for large gradients");
  return in;
}

std::vector<LossInput> decode_accumulate(const Json& request) {
  ObjectReader r(request, "", {"micro_batches", "shift", "ignore_index"});
  const Json* mbs = r.get("micro_batches");
  if (!mbs) throw InputError("micro_batches", "is missing; expected [{logits, labels}, ...]");
  if (!mbs->is_array()) throw InputError("micro_batches", std::string("expected an array, got ") + Json::describe(mbs->type()));
  std::vector<LossInput> out;
  std::uint64_t total = 0;
  for (size_t i = 0; i < mbs->items().size(); ++i) {
    std::string path = "micro_batches[" + std::to_string(i) + "]";
    ObjectReader m(mbs->items()[i], path, {"logits", "labels"});
    LossInput in = decode_loss_fields(m.get("logits"), m.get("labels"), path + ".");
    decode_loss_options(r, in);
    total += in.logits.size();
    limit_request("micro_batches", "logits values in all micro-batches", total, kMaxLossValues);
    out.push_back(std::move(in));
  }
  return out;
}

AttentionInput decode_attention(const Json& request) {
  ObjectReader r(request, "", {"q", "k", "v", "attention_mask", "causal", "scale", "fully_masked_rows"});
  AttentionInput in;
  std::vector<int> dims;
  for (auto [key, slot] : {std::pair{"q", &in.q}, std::pair{"k", &in.k}, std::pair{"v", &in.v}}) {
    const Json* x = r.get(key);
    if (!x) throw InputError(key, "is missing; expected [B][T][D] numbers");
    std::vector<int> d;
    *slot = read_number_tensor(*x, key, 3, d);
    if (dims.empty()) dims = d;
    else if (d != dims)
      throw InputError(key, "has shape [" + std::to_string(d[0]) + "][" + std::to_string(d[1]) + "][" +
                                std::to_string(d[2]) + "] but q has [" + std::to_string(dims[0]) + "][" +
                                std::to_string(dims[1]) + "][" + std::to_string(dims[2]) + "]");
  }
  in.B = dims[0];
  in.T = dims[1];
  in.D = dims[2];
  limit_answer("q", "score cells (B × T × T = " + shape_text({in.B, in.T, in.T}) + ")", product({in.B, in.T, in.T}),
               kMaxAttentionCells, "; the answer has scores, visible and weights for every query/key pair — use fewer positions");
  limit_request("q", "multiply-adds to do (B × T × T × D = " + shape_text({in.B, in.T, in.T, in.D}) + ")",
                product({in.B, in.T, in.T, in.D}), kMaxAttentionWork);
  if (const Json* x = r.get("attention_mask")) {
    std::vector<int> md;
    in.attention_mask = read_int_tensor(*x, "attention_mask", 2, md);
    if (md[0] != in.B || md[1] != in.T)
      throw InputError("attention_mask", "has shape [" + std::to_string(md[0]) + "][" + std::to_string(md[1]) +
                                             "] but q has B=" + std::to_string(in.B) + ", T=" + std::to_string(in.T));
    for (size_t i = 0; i < in.attention_mask.size(); ++i)
      if (in.attention_mask[i] != 0 && in.attention_mask[i] != 1)
        throw InputError("attention_mask[" + std::to_string(i / in.T) + "][" + std::to_string(i % in.T) + "]",
                         "is " + std::to_string(in.attention_mask[i]) + "; expected 0 or 1");
  }
  if (const Json* x = r.get("causal")) in.causal = read_bool(*x, "causal");
  if (const Json* x = r.get("scale")) in.scale = read_number(*x, "scale");
  if (const Json* x = r.get("fully_masked_rows")) in.fully_masked_rows = decode_fully_masked_rows(*x);
  return in;
}

InspectInput decode_inspect(const Json& request) {
  std::vector<std::string_view> allowed = kCollateFields;
  for (auto k : {"text_features", "vocab", "add_bos", "add_eos", "causal", "toggle_attention_mask", "toggle_labels",
                 "reduction", "num_items_in_batch", "gradient", "per_token_loss", "fully_masked_rows",
                 "attn_implementation", "freeze_model", "with_attention"})
    allowed.push_back(k);
  ObjectReader r(request, "", allowed);
  InspectInput in;
  const Json* text = r.get("text_features");
  if (text && r.get("vocab"))
    throw InputError("vocab", "comes from the built-in tokenizer when text_features are given; leave it out");
  if (text && r.get("features"))
    throw InputError("text_features", "give either features (ids) or text_features (text), not both");
  in.options = decode_options(r);
  if (text) {
    if (!r.get("pad_token_id")) in.options.pad_token_id = kPadId;
    if (!r.get("eos_token_id")) in.options.eos_token_id = kEosId;
    bool add_bos = true, add_eos = true;
    if (const Json* v = r.get("add_bos")) add_bos = read_bool(*v, "add_bos");
    if (const Json* v = r.get("add_eos")) add_eos = read_bool(*v, "add_eos");
    if (!text->is_array() || text->items().empty())
      throw InputError("text_features", "expected a non-empty array of strings or {prompt, completion} objects");
    check_inspect_rows("text_features", text->items().size());
    Vocabulary vocab;
    // Tokenising stops one token past the bound, so a huge text costs what was read.
    auto encode_text = [&](const std::string& text_value, const std::string& field) {
      std::vector<int> ids = encode(text_value, vocab, kMaxInspectTextTokens + 1);
      if (ids.size() > static_cast<size_t>(kMaxInspectTextTokens))
        throw InputError(field, "has more than " + grouped(kMaxInspectTextTokens) + " tokens; at most " +
                                    grouped(kMaxInspectTextTokens) + " are accepted (the request is too large)");
      return ids;
    };
    for (size_t i = 0; i < text->items().size(); ++i) {
      const Json& item = text->items()[i];
      const std::string path = "text_features[" + std::to_string(i) + "]";
      Feature f;
      std::vector<int> prompt, completion;
      if (item.is_string()) {
        prompt = encode_text(item.as_string(), path);
      } else {
        ObjectReader ir(item, path, {"prompt", "completion"});
        if (const Json* p = ir.get("prompt")) prompt = encode_text(read_string(*p, ir.path("prompt")), ir.path("prompt"));
        const Json* c = ir.get("completion");
        if (!c) throw InputError(ir.path("completion"), "is missing");
        completion = encode_text(read_string(*c, ir.path("completion")), ir.path("completion"));
      }
      const bool has_completion = !item.is_string();
      if (add_bos) f.input_ids.push_back(kBosId);
      f.input_ids.insert(f.input_ids.end(), prompt.begin(), prompt.end());
      const size_t prompt_end = f.input_ids.size();
      f.input_ids.insert(f.input_ids.end(), completion.begin(), completion.end());
      if (add_eos) f.input_ids.push_back(kEosId);
      if (f.input_ids.empty()) throw InputError(path, "has no tokens");
      if (has_completion) {
        f.completion_mask = std::vector<int>(f.input_ids.size(), 1);
        std::fill(f.completion_mask->begin(), f.completion_mask->begin() + static_cast<long>(prompt_end), 0);
      }
      in.features.push_back(std::move(f));
    }
    in.vocab = vocab.tokens();
    in.vocab_from_text = true;
  } else {
    in.features = decode_features(r);
    check_inspect_rows("features", in.features.size());
    // Optional names for the ids, so a hand-built batch still reads as tokens in the grid.
    if (const Json* v = r.get("vocab")) {
      if (!v->is_array()) throw InputError("vocab", "expected an array of token strings (index = id)");
      for (size_t i = 0; i < v->items().size(); ++i)
        in.vocab.push_back(read_string(v->items()[i], "vocab[" + std::to_string(i) + "]"));
    }
  }
  if (const Json* v = r.get("causal")) in.causal = read_bool(*v, "causal");
  if (const Json* v = r.get("reduction")) in.reduction = decode_reduction(*v);
  if (const Json* v = r.get("num_items_in_batch")) in.num_items_in_batch = read_number(*v, "num_items_in_batch");
  if (const Json* v = r.get("gradient")) in.gradient = read_bool(*v, "gradient");
  if (const Json* v = r.get("per_token_loss")) in.per_token_loss = decode_per_token_loss(*v);
  if (const Json* v = r.get("fully_masked_rows")) in.fully_masked_rows = decode_fully_masked_rows(*v);
  if (const Json* v = r.get("attn_implementation"))
    in.attn_implementation = static_cast<AttentionImplementation>(
        read_choice(*v, "attn_implementation", {"sdpa", "flash_attention_2"}));
  in.toggle_attention_mask = decode_cells(r, "toggle_attention_mask");
  in.toggle_labels = decode_cells(r, "toggle_labels");
  if (const Json* v = r.get("freeze_model")) in.freeze_model = read_bool(*v, "freeze_model");
  if (const Json* v = r.get("with_attention")) in.with_attention = read_bool(*v, "with_attention");
  return in;
}

namespace {
// The batch's [B][T] tensors, which the typed-array path hands over as buffers instead.
void set_batch_tensors(Json& out, const Batch& batch) {
  out.set("input_ids", int_rows(batch.input_ids, batch.B, batch.T));
  out.set("attention_mask", batch.has_attention_mask ? int_rows(batch.attention_mask, batch.B, batch.T) : Json::null());
  out.set("labels", int_rows(batch.labels, batch.B, batch.L));
  out.set("position_ids", int_rows(batch.position_ids, batch.B, batch.T));
  out.set("is_pad", int_rows(std::vector<int>(batch.is_pad.begin(), batch.is_pad.end()), batch.B, batch.T));
  Json reasons = Json::array();
  for (int b = 0; b < batch.B; ++b) {
    Json row = Json::array();
    for (int t = 0; t < batch.L; ++t) row.push(Json::string(reason_name(batch.label_reasons[batch.at_label(b, t)])));
    reasons.push(std::move(row));
  }
  out.set("label_reasons", std::move(reasons));
}
}  // namespace

Json encode_batch(const Batch& batch, const CollateOptions& options, bool with_tensors) {
  Json out = Json::object();
  if (with_tensors) set_batch_tensors(out, batch);
  out.set("lengths", int_list(batch.lengths));
  out.set("seq_lengths", options.packing == Packing::None ? Json::null() : int_list(batch.seq_lengths));
  Json rows = Json::array();
  for (int b = 0; b < batch.B; ++b) {
    RowFigures f = row_figures(batch, b, options);
    Json ignored = Json::object();
    for (int reason = 1; reason < 7; ++reason)
      if (f.ignored[reason]) ignored.set(reason_name(static_cast<IgnoreReason>(reason)), Json::number(f.ignored[reason]));
    Json row = Json::object();
    row.set("real_tokens", Json::number(f.real_tokens))
        .set("pads", Json::number(f.pads))
        .set("label_tokens", Json::number(f.label_tokens))
        .set("targets", Json::number(f.targets))
        .set("pad_targets", Json::number(f.pad_targets))
        .set("eos_targets", options.eos_token_id ? Json::number(f.eos_targets) : Json::null())
        .set("ignored", std::move(ignored))
        .set("pad_share", Json::number(f.pad_share))
        .set("truncated_tokens", Json::number(f.truncated_tokens));
    rows.push(std::move(row));
  }
  out.set("rows", std::move(rows));
  out.set("shape", int_list({batch.B, batch.T}));
  return out;
}

Json encode_loss(const LossResult& r, const LossInput& in, bool with_gradient_values, bool with_tensors) {
  Json out = Json::object();
  out.set("loss", optional_number(r.loss));
  out.set("loss_null_reason", r.loss ? Json::null() : Json::string(r.null_reason));
  out.set("num_targets", Json::number(r.num_targets));
  out.set("sum", Json::number(r.sum));
  if (with_tensors) out.set("per_token", number_rows(r.per_token, in.B, in.T));
  if (with_tensors) out.set("targets", int_rows(r.targets, in.B, in.T));
  Json per_example = Json::array();
  for (const auto& x : r.per_example_loss) per_example.push(optional_number(x));
  out.set("per_example_loss", std::move(per_example));
  out.set("per_example_targets", int_list(r.per_example_targets));
  Json sums = Json::array();
  for (double x : r.per_example_sum) sums.push(Json::number(x));
  out.set("per_example_sum", std::move(sums));
  Json weights = Json::array();
  for (const auto& w : r.per_example_token_weight) weights.push(optional_number(w));
  out.set("per_example_token_weight", std::move(weights));
  out.set("rows_without_targets", int_list(r.rows_without_targets));
  if (in.gradient) encode_gradient(out, r, in, with_gradient_values);
  return out;
}

Json encode_accumulation(const AccumulationResult& r) {
  Json out = Json::object();
  Json mbs = Json::array();
  for (const auto& m : r.micro_batches) {
    Json j = Json::object();
    j.set("sum", Json::number(m.sum))
        .set("num_targets", Json::number(m.num_targets))
        .set("label_tokens", Json::number(m.label_tokens))
        .set("mean", optional_number(m.mean));
    mbs.push(std::move(j));
  }
  out.set("micro_batches", std::move(mbs));
  out.set("mean_of_means", optional_number(r.mean_of_means));
  out.set("global_token_mean", optional_number(r.global_token_mean));
  out.set("num_items_in_batch", Json::number(r.num_items_in_batch));
  out.set("num_items_unshifted", Json::number(r.num_items_unshifted));
  out.set("null_reason", r.null_reason.empty() ? Json::null() : Json::string(r.null_reason));
  return out;
}

Json encode_attention(const AttentionResult& r, int B, int T, int D, bool with_scores) {
  Json out = Json::object();
  std::vector<double> visible(r.visible.begin(), r.visible.end());
  if (with_scores) out.set("scores", number_cube(r.scores, B, T, T));
  out.set("visible", number_cube(visible, B, T, T));
  if (r.fully_masked_rows_are_nan) {
    out.set("weights", cube_with_null_rows(r.weights, B, T, T, r.fully_masked_queries));
    out.set("output", cube_with_null_rows(r.output, B, T, D, r.fully_masked_queries));
  } else {
    out.set("weights", number_cube(r.weights, B, T, T));
    out.set("output", number_cube(r.output, B, T, D));
  }
  Json masked = Json::array();
  for (auto [b, t] : r.fully_masked_queries) masked.push(int_list({b, t}));
  out.set("fully_masked_queries", std::move(masked));
  out.set("fully_masked_rows", Json::string(r.fully_masked_rows_are_nan ? "nan" : "zeros"));
  out.set("scale", Json::number(r.scale));
  if (!r.scores_null_reason.empty() && with_scores) out.set("scores_null_reason", Json::string(r.scores_null_reason));
  return out;
}

Json encode_inspect(const InspectResult& r, const InspectInput& in) {
  const Batch& batch = r.batch;
  LossInput shape;
  shape.B = batch.B;
  shape.T = batch.T;
  shape.V = r.V;
  shape.gradient = in.gradient;
  Json out = Json::object();
  out.set("batch", encode_batch(batch, in.options));
  Json tokens = Json::array();
  for (int b = 0; b < batch.B; ++b) {
    Json row = Json::array();
    for (int t = 0; t < batch.T; ++t) {
      int id = batch.input_ids[batch.at(b, t)];
      row.push(Json::string(id < static_cast<int>(in.vocab.size()) ? in.vocab[id] : "#" + std::to_string(id)));
    }
    tokens.push(std::move(row));
  }
  out.set("tokens", std::move(tokens));
  Json vocab = Json::array();
  for (const auto& t : in.vocab) vocab.push(Json::string(t));
  out.set("vocab", std::move(vocab));
  out.set("vocab_size", Json::number(r.V));
  out.set("loss", encode_loss(r.loss, shape, false));
  // The grid draws weights; raw scores of fixed embeddings teach nothing and cost a third of the
  // answer, so inspect leaves them out (the attention command returns them).
  out.set("attention", in.with_attention ? encode_attention(r.attention, batch.B, batch.T, kEmbeddingDim, false) : Json::null());
  const InspectSummary& s = r.summary;
  Json summary = Json::object();
  summary.set("targets", Json::number(s.targets))
      .set("real_targets", Json::number(s.real_targets))
      .set("pad_targets", Json::number(s.pad_targets))
      .set("sum_real", Json::number(s.sum_real))
      .set("sum_pad", Json::number(s.sum_pad))
      .set("loss", optional_number(s.loss))
      .set("loss_real", optional_number(s.loss_real))
      .set("loss_pad", optional_number(s.loss_pad))
      .set("loss_all_positions", optional_number(s.loss_all_positions))
      .set("pad_share", Json::number(s.pad_share))
      .set("dilution_factor", optional_number(s.dilution_factor));
  out.set("summary", std::move(summary));
  Json model = Json::object();
  model.set("kind", Json::string("bigram")).set("smoothing", Json::number(kBigramSmoothing));
  model.set("frozen", Json::boolean(in.freeze_model));
  out.set("model", std::move(model));
  return out;
}

}  // namespace masklab
