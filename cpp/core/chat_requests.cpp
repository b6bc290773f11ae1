// chat_requests.cpp — see chat_requests.hpp.
#include "chat_requests.hpp"

#include <map>
#include <string>

#include "input_error.hpp"
#include "json_fields.hpp"
#include "limits.hpp"

namespace masklab {

namespace {

const std::vector<std::string_view> kChatFields = {
    "input_ids", "tokens", "messages", "generation_mask", "turn_mask", "bos_token_id", "eos_token_id", "pad_token_id",
    "eos_token", "pad_token", "target", "end_of_turn", "train_role_headers", "pad_masking", "max_length",
    "truncation_side", "response_template_ids", "instruction_template_ids", "completion_start",
    "prompt_is_prefix", "prefix_breaks", "boundary_tokens", "vocab_size"};

// Refuses an array longer than `limit` before reading any of it.
const Json& bounded_array(const Json& v, const std::string& field, size_t limit, const char* what) {
  if (!v.is_array()) throw InputError(field, std::string("expected an array of ") + what + ", got " + Json::describe(v.type()));
  limit_request(field, "entries", v.items().size(), limit);
  return v;
}

std::vector<int> bounded_ints(const Json& v, const std::string& field, size_t limit) {
  return read_int_list(bounded_array(v, field, limit, "integers"), field);
}

// [begin, end) as a two-integer array.
void read_range(const ObjectReader& r, const char* key, int& begin, int& end) {
  const Json* v = r.get(key);
  if (!v) throw InputError(r.path(key), "is missing; expected [begin, end) token indices");
  std::vector<int> pair = bounded_ints(*v, r.path(key), 2);
  if (pair.size() != 2) throw InputError(r.path(key), "expected two integers [begin, end)");
  begin = pair[0];
  end = pair[1];
}

ChatSpan decode_span(const Json& v, const std::string& path) {
  ObjectReader r(v, path, {"role", "rendered", "header", "content", "tail", "end_of_turn"});
  ChatSpan s;
  const Json* role = r.get("role");
  if (!role) throw InputError(r.path("role"), "is missing");
  s.role = read_string(*role, r.path("role"));
  static const std::vector<std::string> roles = {"system", "user", "assistant", "tool", "developer"};
  bool known = false;
  for (const auto& x : roles) known = known || x == s.role;
  if (!known) throw InputError(r.path("role"), "is \"" + s.role.substr(0, 40) + "\"; expected system, user, assistant, tool or developer");
  if (const Json* x = r.get("rendered")) s.rendered = read_bool(*x, r.path("rendered"));
  if (!s.rendered) return s;
  read_range(r, "header", s.header_begin, s.header_end);
  read_range(r, "content", s.content_begin, s.content_end);
  read_range(r, "tail", s.tail_begin, s.tail_end);
  if (const Json* x = r.get("end_of_turn")) s.end_of_turn = read_int(*x, r.path("end_of_turn"));
  return s;
}

// A list of positions or message indices that each name one thing once (as the chat page sends
// them): strictly increasing. Repeats would repeat a warning and its positions: 1,000 copies of
// one long message in prefix_breaks made a 1.7 GB answer.
std::vector<int> increasing_ints(const Json& v, const std::string& field, size_t limit) {
  std::vector<int> out = bounded_ints(v, field, limit);
  for (size_t i = 1; i < out.size(); ++i)
    if (out[i] <= out[i - 1])
      throw InputError(field + "[" + std::to_string(i) + "]", "is " + std::to_string(out[i]) + " after " +
                                                                  std::to_string(out[i - 1]) +
                                                                  "; list each once, in increasing order");
  return out;
}

std::optional<int> optional_int(const ObjectReader& r, const char* key) {
  if (const Json* v = r.get(key)) return read_int(*v, key);
  return std::nullopt;
}

}  // namespace

ChatInput decode_chat(const Json& request) {
  ObjectReader r(request, "", kChatFields);
  ChatInput in;
  const Json* ids = r.get("input_ids");
  if (!ids) throw InputError("input_ids", "is missing; expected the rendered conversation's token ids");
  in.input_ids = bounded_ints(*ids, "input_ids", kMaxChatTokens);
  if (in.input_ids.empty()) throw InputError("input_ids", "is empty");
  const size_t T = in.input_ids.size();
  if (const Json* v = r.get("vocab_size")) {
    const int V = read_int(*v, "vocab_size");
    for (size_t t = 0; t < T; ++t)
      if (in.input_ids[t] < 0 || in.input_ids[t] >= V)
        throw InputError("input_ids[" + std::to_string(t) + "]", "is " + std::to_string(in.input_ids[t]) + ", outside the vocabulary 0.." + std::to_string(V - 1));
  }
  if (const Json* v = r.get("tokens")) {
    bounded_array(*v, "tokens", kMaxChatTokens, "strings");
    for (size_t t = 0; t < v->items().size(); ++t) {
      std::string s = read_string(v->items()[t], "tokens[" + std::to_string(t) + "]");
      if (s.size() > kMaxTokenText) throw InputError("tokens[" + std::to_string(t) + "]", "is longer than 1024 characters");
      in.tokens.push_back(std::move(s));
    }
  }
  const Json* messages = r.get("messages");
  if (!messages) throw InputError("messages", "is missing; expected one {role, header, content, tail} per message");
  bounded_array(*messages, "messages", kMaxChatMessages, "message spans");
  for (size_t k = 0; k < messages->items().size(); ++k)
    in.spans.push_back(decode_span(messages->items()[k], "messages[" + std::to_string(k) + "]"));
  if (const Json* v = r.get("generation_mask")) in.generation_mask = bounded_ints(*v, "generation_mask", kMaxChatTokens);
  if (const Json* v = r.get("turn_mask")) in.turn_mask = bounded_ints(*v, "turn_mask", kMaxChatTokens);
  in.bos_token_id = optional_int(r, "bos_token_id");
  in.eos_token_id = optional_int(r, "eos_token_id");
  in.pad_token_id = optional_int(r, "pad_token_id");
  if (const Json* v = r.get("eos_token")) in.eos_token = read_string(*v, "eos_token").substr(0, kMaxTokenText);
  if (const Json* v = r.get("pad_token")) in.pad_token = read_string(*v, "pad_token").substr(0, kMaxTokenText);
  if (const Json* v = r.get("target"))
    in.target = static_cast<ChatTarget>(read_choice(
        *v, "target", {"all", "assistant", "last_assistant", "completion", "generation", "response_template", "turn_by_turn"}));
  if (const Json* v = r.get("end_of_turn"))
    in.end_of_turn = static_cast<EndOfTurnPolicy>(read_choice(*v, "end_of_turn", {"every", "last", "never"}));
  if (const Json* v = r.get("train_role_headers")) in.train_role_headers = read_bool(*v, "train_role_headers");
  if (const Json* v = r.get("pad_masking"))
    in.pad_masking = static_cast<PadMasking>(read_choice(*v, "pad_masking", {"position", "pad_id"}));
  in.max_length = optional_int(r, "max_length");
  if (const Json* v = r.get("truncation_side"))
    in.truncation_side = static_cast<Side>(read_choice(*v, "truncation_side", {"right", "left"}));
  if (const Json* v = r.get("response_template_ids")) in.response_template_ids = bounded_ints(*v, "response_template_ids", kMaxTemplateIds);
  if (const Json* v = r.get("instruction_template_ids"))
    in.instruction_template_ids = bounded_ints(*v, "instruction_template_ids", kMaxTemplateIds);
  in.completion_start = optional_int(r, "completion_start");
  if (const Json* v = r.get("prompt_is_prefix")) in.prompt_is_prefix = read_bool(*v, "prompt_is_prefix");
  if (const Json* v = r.get("prefix_breaks")) in.prefix_breaks = increasing_ints(*v, "prefix_breaks", kMaxChatMessages);
  if (const Json* v = r.get("boundary_tokens"))
    in.boundary_tokens = increasing_ints(*v, "boundary_tokens", kMaxBoundaryTokens);
  return in;
}

Json encode_chat(const ChatResult& r) {
  Json out = Json::object();
  out.set("input_ids", int_list(r.input_ids));
  out.set("labels", int_list(r.labels));
  Json reasons = Json::array();
  Json parts = Json::array();
  std::map<std::string, int> ignored;
  int trained = 0;
  for (size_t t = 0; t < r.reasons.size(); ++t) {
    const char* name = chat_reason_name(r.reasons[t]);
    reasons.push(Json::string(name));
    parts.push(Json::string(r.part_of[t]));
    if (*name) ++ignored[name];
    else ++trained;
  }
  out.set("label_reasons", std::move(reasons));
  out.set("message_index", int_list(r.message_of));
  out.set("parts", std::move(parts));
  Json turns = Json::array();
  for (const ChatTurn& turn : r.turns) {
    Json j = Json::object();
    j.set("message", Json::number(turn.message))
        .set("role", Json::string(turn.role))
        .set("tokens", Json::number(turn.tokens))
        .set("trained", Json::number(turn.trained))
        .set("ignored", Json::number(turn.ignored))
        .set("end_of_turn", turn.end_of_turn >= 0 ? Json::number(turn.end_of_turn) : Json::null())
        .set("end_of_turn_trained", turn.end_of_turn_trained ? Json::boolean(*turn.end_of_turn_trained) : Json::null())
        .set("truncated_tokens", Json::number(turn.truncated_tokens));
    turns.push(std::move(j));
  }
  out.set("turns", std::move(turns));
  out.set("trained_tokens", Json::number(trained));
  out.set("ignored_tokens", Json::number(static_cast<double>(r.reasons.size()) - trained));
  Json by_reason = Json::object();
  for (const auto& [name, n] : ignored) by_reason.set(name, Json::number(n));
  out.set("ignored", std::move(by_reason));
  out.set("truncated_tokens", Json::number(r.truncated_tokens));
  out.set("end_of_turn_token_id", r.end_of_turn_token_id ? Json::number(*r.end_of_turn_token_id) : Json::null());
  Json warnings = Json::array();
  std::map<std::string, int> counts;
  for (const ChatWarning& w : r.warnings) {
    Json j = Json::object();
    j.set("id", Json::string(w.id))
        .set("severity", Json::string(w.severity))
        .set("turn", w.turn >= 0 ? Json::number(w.turn) : Json::null())
        .set("positions", int_list(w.positions))
        .set("message", Json::string(w.message));
    warnings.push(std::move(j));
    ++counts[w.id];
  }
  out.set("warnings", std::move(warnings));
  Json warning_counts = Json::object();
  for (const std::string& id : chat_warning_ids()) warning_counts.set(id, Json::number(counts[id]));
  out.set("warning_counts", std::move(warning_counts));
  return out;
}

}  // namespace masklab
