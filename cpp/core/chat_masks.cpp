// chat_masks.cpp — see chat_masks.hpp.
#include "chat_masks.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include "input_error.hpp"
#include "response_template.hpp"

namespace masklab {

namespace {

enum class Part : unsigned char { None, Header, Content, EndOfTurn, Tail };
const char* part_name(Part p) {
  switch (p) {
    case Part::Header: return "header";
    case Part::Content: return "content";
    case Part::EndOfTurn: return "end_of_turn";
    case Part::Tail: return "tail";
    case Part::None: break;
  }
  return "scaffolding";
}

ChatReason role_reason(const std::string& role) {
  if (role == "system") return ChatReason::System;
  if (role == "tool") return ChatReason::Tool;
  if (role == "developer") return ChatReason::Developer;
  return ChatReason::User;
}

std::string idx(int i) { return std::to_string(i); }
std::string turn_name(int k, const std::string& role) { return "message " + idx(k + 1) + " (" + role + ")"; }

std::string quoted(const ChatInput& in, int position) {
  if (position < 0 || position >= static_cast<int>(in.tokens.size())) return "#" + idx(in.input_ids[position]);
  return "“" + in.tokens[position] + "” (id " + idx(in.input_ids[position]) + ")";
}

void check_range(int begin, int end, int T, const std::string& field) {
  if (begin < 0 || end < begin || end > T)
    throw InputError(field, "[" + idx(begin) + ", " + idx(end) + ") is not a token range inside 0.." + idx(T));
}

void validate(const ChatInput& in) {
  const int T = static_cast<int>(in.input_ids.size());
  if (!in.tokens.empty() && static_cast<int>(in.tokens.size()) != T)
    throw InputError("tokens", "has " + idx(static_cast<int>(in.tokens.size())) + " entries but input_ids has " + idx(T));
  std::vector<std::pair<int, int>> used;
  for (size_t k = 0; k < in.spans.size(); ++k) {
    const ChatSpan& s = in.spans[k];
    const std::string f = "messages[" + idx(static_cast<int>(k)) + "]";
    if (!s.rendered) continue;
    check_range(s.header_begin, s.header_end, T, f + ".header");
    check_range(s.content_begin, s.content_end, T, f + ".content");
    check_range(s.tail_begin, s.tail_end, T, f + ".tail");
    if (s.header_end != s.content_begin || s.content_end != s.tail_begin)
      throw InputError(f, "header, content and tail must follow each other without gaps");
    if (s.end_of_turn != -1 && (s.end_of_turn < s.tail_begin || s.end_of_turn >= s.tail_end))
      throw InputError(f + ".end_of_turn", "is " + idx(s.end_of_turn) + ", outside the tail [" + idx(s.tail_begin) + ", " + idx(s.tail_end) + ")");
    used.emplace_back(s.header_begin, s.tail_end);
  }
  std::sort(used.begin(), used.end());
  for (size_t i = 1; i < used.size(); ++i)
    if (used[i].first < used[i - 1].second)
      throw InputError("messages", "two messages claim the same tokens (ranges [" + idx(used[i - 1].first) + ", " +
                                       idx(used[i - 1].second) + ") and [" + idx(used[i].first) + ", " + idx(used[i].second) + "))");
  if (in.generation_mask && static_cast<int>(in.generation_mask->size()) != T)
    throw InputError("generation_mask", "has " + idx(static_cast<int>(in.generation_mask->size())) + " entries but input_ids has " + idx(T));
  if (in.turn_mask && static_cast<int>(in.turn_mask->size()) != T)
    throw InputError("turn_mask", "has " + idx(static_cast<int>(in.turn_mask->size())) + " entries but input_ids has " + idx(T));
  if (in.target == ChatTarget::TurnByTurn && !in.turn_mask)
    throw InputError("turn_mask", "is missing; the turn_by_turn target needs the mask measured from growing prefixes");
  if (in.target == ChatTarget::Completion && !in.completion_start)
    throw InputError("completion_start", "is missing; the completion target needs the first token after the prompt");
  if (in.completion_start && (*in.completion_start < 0 || *in.completion_start > T))
    throw InputError("completion_start", "is " + idx(*in.completion_start) + ", outside 0.." + idx(T));
  if (in.target == ChatTarget::ResponseTemplate && in.response_template_ids.empty())
    throw InputError("response_template_ids", "is missing or empty; the response_template target searches for these ids");
  if (in.max_length && *in.max_length < 1) throw InputError("max_length", "must be at least 1");
  for (int b : in.prefix_breaks)
    if (b < 0 || b >= static_cast<int>(in.spans.size())) throw InputError("prefix_breaks", "names message " + idx(b) + ", which does not exist");
  for (int t : in.boundary_tokens)
    if (t < 0 || t >= T) throw InputError("boundary_tokens", "names position " + idx(t) + ", outside the sequence");
}

// Where every token sits: message index and part.
void place(const ChatInput& in, std::vector<int>& message_of, std::vector<Part>& part) {
  const int T = static_cast<int>(in.input_ids.size());
  message_of.assign(T, -1);
  part.assign(T, Part::None);
  for (size_t k = 0; k < in.spans.size(); ++k) {
    const ChatSpan& s = in.spans[k];
    if (!s.rendered) continue;
    auto mark = [&](int a, int b, Part p) {
      for (int t = a; t < b; ++t) {
        message_of[t] = static_cast<int>(k);
        part[t] = p;
      }
    };
    mark(s.header_begin, s.header_end, Part::Header);
    mark(s.content_begin, s.content_end, Part::Content);
    mark(s.tail_begin, s.tail_end, Part::Tail);
    if (s.end_of_turn >= 0) part[s.end_of_turn] = Part::EndOfTurn;
  }
}

int last_assistant(const ChatInput& in) {
  for (int k = static_cast<int>(in.spans.size()) - 1; k >= 0; --k)
    if (in.spans[k].role == "assistant" && in.spans[k].rendered) return k;
  return -1;
}

// The role-based rule, shared by Assistant, LastAssistant and the {% generation %} comparison.
ChatReason role_rule(const ChatInput& in, int k, Part p, int last) {
  if (k < 0) return ChatReason::Scaffolding;
  const ChatSpan& s = in.spans[k];
  if (s.role != "assistant") return p == Part::Header ? ChatReason::RoleHeader : role_reason(s.role);
  if (in.target == ChatTarget::LastAssistant && k != last) return ChatReason::EarlierTurn;
  switch (p) {
    case Part::Header: return in.train_role_headers ? ChatReason::Trained : ChatReason::RoleHeader;
    case Part::Content: return ChatReason::Trained;
    case Part::EndOfTurn:
      if (in.end_of_turn == EndOfTurnPolicy::Every) return ChatReason::Trained;
      if (in.end_of_turn == EndOfTurnPolicy::Last && k == last) return ChatReason::Trained;
      return ChatReason::EndOfTurn;
    case Part::Tail:
    case Part::None: break;
  }
  return ChatReason::Scaffolding;
}

void warn(ChatResult& r, std::string id, std::string severity, int turn, std::vector<int> positions, std::string message) {
  r.warnings.push_back({std::move(id), std::move(severity), turn, std::move(positions), std::move(message)});
}

// The id that ends the last assistant turn (before truncation): the token generation must stop
// on. Templates that end earlier turns differently (gpt-oss: <|end|> for every message but the
// last, whose final answer ends with <|return|>; docs/semantics.md §8.6) are judged by the last.
// Without an end-of-turn token there, the most frequent one among the other assistant turns.
std::optional<int> end_of_turn_id(const ChatInput& in) {
  const int last = last_assistant(in);
  if (last >= 0 && in.spans[last].end_of_turn >= 0) return in.input_ids[in.spans[last].end_of_turn];
  std::map<int, int> count;
  for (const ChatSpan& s : in.spans)
    if (s.rendered && s.role == "assistant" && s.end_of_turn >= 0) ++count[in.input_ids[s.end_of_turn]];
  std::optional<int> best;
  int n = 0;
  for (auto [id, c] : count)
    if (c > n) best = id, n = c;
  return best;
}

}  // namespace

const char* chat_reason_name(ChatReason r) {
  switch (r) {
    case ChatReason::Trained: return "";
    case ChatReason::System: return "system";
    case ChatReason::User: return "user";
    case ChatReason::Tool: return "tool";
    case ChatReason::Developer: return "developer";
    case ChatReason::RoleHeader: return "role_header";
    case ChatReason::Scaffolding: return "scaffolding";
    case ChatReason::EndOfTurn: return "end_of_turn";
    case ChatReason::EarlierTurn: return "earlier_turn";
    case ChatReason::Prompt: return "prompt";
    case ChatReason::NotGeneration: return "not_generation";
    case ChatReason::TemplateSearch: return "template_search";
    case ChatReason::PadId: return "pad_id";
    case ChatReason::TurnRange: return "turn_range";
  }
  return "?";
}

const std::vector<std::string>& chat_warning_ids() {
  static const std::vector<std::string> ids = {
      "assistant_turn_untrained", "truncated_answer",       "truncated_end_of_turn",
      "response_template_not_found", "response_template_in_message", "no_generation_blocks", "end_of_turn_untrained",
      "pad_is_end_of_turn",       "eos_differs_from_end_of_turn", "not_prefix_stable",
      "doubled_bos",              "message_not_rendered",   "prompt_not_prefix",
      "turn_mask_differs_from_roles", "generation_differs_from_roles", "boundary_token"};
  return ids;
}

ChatResult chat_masks(const ChatInput& in) {
  validate(in);
  const int T = static_cast<int>(in.input_ids.size());
  ChatResult r;
  std::vector<int> message_of;
  std::vector<Part> part;
  place(in, message_of, part);
  const int last = last_assistant(in);
  r.end_of_turn_token_id = end_of_turn_id(in);

  // 1. Labels over the whole rendered sequence, by the target policy.
  std::vector<ChatReason> reason(T, ChatReason::Trained);
  for (int t = 0; t < T; ++t) {
    switch (in.target) {
      case ChatTarget::All:
      case ChatTarget::ResponseTemplate: reason[t] = ChatReason::Trained; break;
      case ChatTarget::Assistant:
      case ChatTarget::LastAssistant: reason[t] = role_rule(in, message_of[t], part[t], last); break;
      case ChatTarget::Completion: reason[t] = t < *in.completion_start ? ChatReason::Prompt : ChatReason::Trained; break;
      case ChatTarget::Generation:
        reason[t] = in.generation_mask && (*in.generation_mask)[t] ? ChatReason::Trained : ChatReason::NotGeneration;
        break;
      case ChatTarget::TurnByTurn: reason[t] = (*in.turn_mask)[t] ? ChatReason::Trained : ChatReason::TurnRange; break;
    }
  }
  // 2. Masking by pad id: DataCollatorForLanguageModeling's labels[labels == pad] = -100. The
  //    completion-only collator inherits it and searches afterwards, so the order matches TRL.
  auto mask_pad_ids = [&] {
    if (in.pad_masking != PadMasking::ById || !in.pad_token_id) return;
    for (int t = 0; t < T; ++t)
      if (in.input_ids[t] == *in.pad_token_id && reason[t] == ChatReason::Trained) reason[t] = ChatReason::PadId;
  };
  mask_pad_ids();
  std::optional<TemplateSearch> search;
  if (in.target == ChatTarget::ResponseTemplate) {
    std::vector<int> labels(T);
    for (int t = 0; t < T; ++t) labels[t] = reason[t] == ChatReason::Trained ? in.input_ids[t] : kIgnoreIndex;
    search = search_response_template(labels, in.response_template_ids, in.instruction_template_ids);
    for (int t = 0; t < T; ++t)
      if (search->masked[t]) reason[t] = ChatReason::TemplateSearch;
  }

  // 3. Truncation at max_length: TRL keeps the start (right truncation).
  int keep_from = 0, keep_to = T;
  if (in.max_length && T > *in.max_length) {
    if (in.truncation_side == Side::Right) keep_to = *in.max_length;
    else keep_from = T - *in.max_length;
  }
  r.truncated_tokens = T - (keep_to - keep_from);
  auto kept = [&](int t) { return t >= keep_from && t < keep_to; };
  for (int t = keep_from; t < keep_to; ++t) {
    r.input_ids.push_back(in.input_ids[t]);
    r.labels.push_back(reason[t] == ChatReason::Trained ? in.input_ids[t] : kIgnoreIndex);
    r.reasons.push_back(reason[t]);
    r.message_of.push_back(message_of[t]);
    r.part_of.push_back(part_name(part[t]));
  }
  auto out_pos = [&](int t) { return t - keep_from; };

  // 4. Per-turn counts.
  for (size_t k = 0; k < in.spans.size(); ++k) {
    const ChatSpan& s = in.spans[k];
    ChatTurn turn;
    turn.message = static_cast<int>(k);
    turn.role = s.role;
    if (s.rendered) {
      for (int t = s.header_begin; t < s.tail_end; ++t) {
        if (!kept(t)) {
          ++turn.truncated_tokens;
          continue;
        }
        ++turn.tokens;
        if (reason[t] == ChatReason::Trained) ++turn.trained;
        else ++turn.ignored;
      }
      if (s.end_of_turn >= 0 && kept(s.end_of_turn)) {
        turn.end_of_turn = out_pos(s.end_of_turn);
        if (s.role == "assistant") turn.end_of_turn_trained = reason[s.end_of_turn] == ChatReason::Trained;
      }
    }
    r.turns.push_back(turn);
  }

  // 5. Warnings, most serious first (chat_warning_ids() order).
  auto positions_of = [&](int a, int b) {
    std::vector<int> p;
    for (int t = a; t < b; ++t)
      if (kept(t)) p.push_back(out_pos(t));
    return p;
  };
  for (const ChatTurn& turn : r.turns) {
    const ChatSpan& s = in.spans[turn.message];
    if (s.role != "assistant" || !s.rendered || turn.trained > 0 || turn.tokens + turn.truncated_tokens == 0) continue;
    std::string why;
    if (turn.tokens == 0) why = " — max_length cut all of it";
    else if (in.target == ChatTarget::ResponseTemplate)
      why = search->response_found ? " — the response-template search keeps only what follows its last match"
                                   : " — the response template's ids were not found, so TRL drops the whole row";
    else if (in.target == ChatTarget::LastAssistant) why = " — only the last assistant turn is a target";
    else if (in.target == ChatTarget::Generation) why = " — it lies outside every {% generation %} block";
    else if (in.target == ChatTarget::Completion) why = " — it is part of the prompt";
    else if (in.target == ChatTarget::TurnByTurn) why = " — the ranges measured from growing prefixes cover it";
    else if (in.pad_masking == PadMasking::ById) why = " — its tokens equal the pad id";
    warn(r, "assistant_turn_untrained", "error", turn.message, positions_of(s.header_begin, s.tail_end),
         turn_name(turn.message, s.role) + " has no trained token" + why + ".");
  }
  if (last >= 0 && r.truncated_tokens > 0) {
    const ChatSpan& s = in.spans[last];
    int content_cut = 0;
    for (int t = s.content_begin; t < s.content_end; ++t) content_cut += kept(t) ? 0 : 1;
    if (content_cut == s.content_end - s.content_begin && content_cut > 0)
      warn(r, "truncated_answer", "error", last, {},
           "max_length " + idx(*in.max_length) + " cuts all of " + turn_name(last, s.role) + ": the answer is never trained.");
    else if (content_cut > 0)
      warn(r, "truncated_answer", "error", last, positions_of(s.content_begin, s.content_end),
           "max_length " + idx(*in.max_length) + " cuts " + turn_name(last, s.role) + " after " +
               idx(s.content_end - s.content_begin - content_cut) + " of its " + idx(s.content_end - s.content_begin) +
               " tokens: the answer is trained only in part, and its end is never seen.");
    else if (s.end_of_turn >= 0 && !kept(s.end_of_turn))
      warn(r, "truncated_end_of_turn", "error", last, {},
           "max_length " + idx(*in.max_length) + " cuts the end-of-turn token of " + turn_name(last, s.role) +
               ": the model learns this answer without learning to stop after it.");
  }
  if (in.target == ChatTarget::ResponseTemplate && !search->response_found)
    warn(r, "response_template_not_found", "error", -1, {},
         "the response template's token ids do not occur in this sequence (TRL: “Could not find response key … This instance will be ignored in loss calculation”).");
  // The search cannot tell a template header from the same ids typed inside a message (a user
  // quoting a chat log): each match in a message's text is taken for an assistant header.
  if (in.target == ChatTarget::ResponseTemplate) {
    const int n = static_cast<int>(in.response_template_ids.size());
    const bool last_match_wins = in.instruction_template_ids.empty();
    std::vector<std::vector<int>> inside(in.spans.size());
    std::vector<bool> decides(in.spans.size(), false);  // holds the last match, from which training starts
    // Overlapping matches (a run of one id) share positions: each is listed once, so the
    // warnings hold at most T positions, not matches × n (262,144 × 512 ids = 537 MB).
    std::vector<std::uint8_t> listed(part.size(), 0);
    for (int e : search->response_ends)
      for (int t = e - n; t < e; ++t)
        if (t >= 0 && part[t] == Part::Content && message_of[t] >= 0) {
          for (int u = std::max(e - n, 0); u < e; ++u)
            if (kept(u) && !listed[u]) {
              listed[u] = 1;
              inside[message_of[t]].push_back(out_pos(u));
            }
          if (last_match_wins && e == search->response_ends.back()) decides[message_of[t]] = true;
          break;
        }
    int foreign_trained = 0;
    for (const ChatTurn& turn : r.turns) foreign_trained += in.spans[turn.message].role != "assistant" ? turn.trained : 0;
    for (size_t k = 0; k < inside.size(); ++k) {
      if (inside[k].empty()) continue;
      std::string effect;
      if (foreign_trained > 0)
        effect = ", and " + idx(foreign_trained) + " token(s) of messages that are not the assistant's are trained.";
      else if (decides[k])
        effect = ", and as the last match it decides: nothing before it is trained.";
      else
        effect = "; a later match decides here, so it changes nothing (with an instruction template it would).";
      warn(r, "response_template_in_message", foreign_trained > 0 || decides[k] ? "error" : "warning", static_cast<int>(k), inside[k],
           "the response template's ids occur inside the text of " + turn_name(static_cast<int>(k), in.spans[k].role) +
               ": the search takes them for an assistant header" + effect);
    }
  }
  if (in.target == ChatTarget::Generation && !in.generation_mask)
    warn(r, "no_generation_blocks", "error", -1, {},
         "the chat template has no {% generation %} block, so return_assistant_tokens_mask is all zeros (transformers only warns; TRL 0.24 raises).");

  int eot_trained = 0;
  for (const ChatTurn& turn : r.turns) eot_trained += turn.end_of_turn_trained.value_or(false) ? 1 : 0;
  for (const ChatTurn& turn : r.turns) {
    if (!turn.end_of_turn_trained || *turn.end_of_turn_trained || turn.trained == 0) continue;
    const int p = in.spans[turn.message].end_of_turn;
    warn(r, "end_of_turn_untrained", eot_trained == 0 ? "warning" : "info", turn.message, {out_pos(p)},
         "the end-of-turn token " + quoted(in, p) + " of " + turn_name(turn.message, turn.role) + " is not trained" +
             (eot_trained == 0 ? ": no assistant turn teaches the model to stop." : " (another turn's is)."));
  }
  const std::optional<int> eot = r.end_of_turn_token_id;
  std::vector<int> eot_positions;
  for (int t = keep_from; t < keep_to; ++t)
    if (part[t] == Part::EndOfTurn && eot && in.input_ids[t] == *eot && message_of[t] >= 0 && in.spans[message_of[t]].role == "assistant")
      eot_positions.push_back(out_pos(t));
  if (in.pad_token_id && ((eot && *in.pad_token_id == *eot) || (in.eos_token_id && *in.pad_token_id == *in.eos_token_id))) {
    const bool by_id = in.pad_masking == PadMasking::ById;
    const std::string what = eot && *in.pad_token_id == *eot ? "the end-of-turn token" : "eos_token";
    warn(r, "pad_is_end_of_turn", by_id ? "error" : "info", -1, eot_positions,
         "pad_token " + in.pad_token + " (id " + idx(*in.pad_token_id) + ") is " + what +
             (by_id ? "; masking labels by pad id removes every real one from the targets."
                    : "; harmless while padding is masked by position, fatal with a collator that masks by id."));
  }
  if (eot && in.eos_token_id && *eot != *in.eos_token_id) {
    std::string eot_text = eot_positions.empty() ? "#" + idx(*eot) : quoted(in, eot_positions.front() + keep_from);
    warn(r, "eos_differs_from_end_of_turn", "warning", -1, eot_positions,
         "eos_token is " + in.eos_token + " (id " + idx(*in.eos_token_id) + ") but assistant turns end with " + eot_text +
             ": generation stops on eos_token_id unless the generation config lists both.");
  }
  for (int k : in.prefix_breaks) {
    const ChatSpan& s = in.spans[k];
    warn(r, "not_prefix_stable", "warning", k, s.rendered ? positions_of(s.header_begin, s.tail_end) : std::vector<int>{},
         "rendering messages 1–" + idx(k + 1) + " alone does not give the start of the full render: the template prints " +
             turn_name(k, s.role) + " differently once later turns exist, so masks computed turn by turn are misaligned.");
  }
  if (in.bos_token_id && T >= 2 && in.input_ids[0] == *in.bos_token_id && in.input_ids[1] == *in.bos_token_id)
    warn(r, "doubled_bos", "warning", -1, positions_of(0, 2),
         "the sequence starts with two BOS tokens: the template already wrote one, and tokenizing the rendered text with add_special_tokens=True added another.");
  for (size_t k = 0; k < in.spans.size(); ++k)
    if (!in.spans[k].rendered)
      warn(r, "message_not_rendered", "warning", static_cast<int>(k), {},
           turn_name(static_cast<int>(k), in.spans[k].role) + " does not appear in the rendered text: the template left it out.");
  if (in.target == ChatTarget::Completion && !in.prompt_is_prefix)
    warn(r, "prompt_not_prefix", "warning", last, {},
         "the prompt rendered with the generation prompt is not a prefix of the whole conversation (TRL: “Mismatch between tokenized prompt and the start of tokenized prompt+completion”).");
  // A mask from growing prefixes is right only where every prefix renders as a prefix
  // (docs/semantics.md §8.2): where it is not, its ranges slide off the turns they were measured for.
  if (in.target == ChatTarget::TurnByTurn) {
    std::vector<int> differ;
    for (int t = keep_from; t < keep_to; ++t) {
      const bool by_role = role_rule(in, message_of[t], part[t], last) == ChatReason::Trained;
      if (by_role != ((*in.turn_mask)[t] != 0)) differ.push_back(out_pos(t));
    }
    if (!differ.empty())
      warn(r, "turn_mask_differs_from_roles", "warning", -1, differ,
           idx(static_cast<int>(differ.size())) + " token(s) are labelled differently by the turn-by-turn mask than by the role spans" +
               (in.prefix_breaks.empty() ? "." : ": the template renders earlier turns differently once later ones exist, so token counts of the shorter renders point at the wrong tokens."));
  }
  if (in.generation_mask) {
    std::vector<int> differ;
    for (int t = keep_from; t < keep_to; ++t) {
      const bool by_role = role_rule(in, message_of[t], part[t], last) == ChatReason::Trained;
      if (by_role != ((*in.generation_mask)[t] != 0)) differ.push_back(out_pos(t));
    }
    if (!differ.empty())
      warn(r, "generation_differs_from_roles", "info", -1, differ,
           idx(static_cast<int>(differ.size())) + " token(s) are inside {% generation %} blocks but not in the assistant role spans under these policies, or the other way round.");
  }
  for (int t : in.boundary_tokens)
    if (kept(t))
      warn(r, "boundary_token", "info", message_of[t], {out_pos(t)},
           "token " + quoted(in, t) + " holds both message text and template text; it is counted with the message.");
  return r;
}

}  // namespace masklab
