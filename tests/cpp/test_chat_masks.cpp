// test_chat_masks.cpp — the chat command's rules (chat_masks.cpp): every target policy, the
// end-of-turn policy, role headers, masking by pad id, truncation, and every warning.
//
// Fixture, a two-turn chat checkable by hand (ids are made up; 1 = BOS, 9 = end-of-turn,
// 10/11 = user/assistant header, 12 = a newline after an end-of-turn):
//   position  0   1   2   3   4 |  5   6   7   8   9 | 10  11  12 | 13  14  15  16
//   id        1  10  20  21   9 | 11  30  31   9  12 | 10  22   9 | 11  32  33   9
//   part    bos   H   c   c eot |  H   c   c eot  nl |  H   c eot |  H   c   c eot
//   message   -   0 (user)      |  1 (assistant)     |  2 (user)  |  3 (assistant)
// Labels are written with "." for -100 so a row reads at a glance.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "api.hpp"
#include "chat_masks.hpp"
#include "chat_requests.hpp"
#include "input_error.hpp"
#include "response_template.hpp"

using namespace masklab;

namespace {

ChatSpan span(const char* role, int h, int c, int t, int e, int eot) {
  ChatSpan s;
  s.role = role;
  s.header_begin = h;
  s.header_end = c;
  s.content_begin = c;
  s.content_end = t;
  s.tail_begin = t;
  s.tail_end = e;
  s.end_of_turn = eot;
  return s;
}

ChatInput two_turns() {
  ChatInput in;
  in.input_ids = {1, 10, 20, 21, 9, 11, 30, 31, 9, 12, 10, 22, 9, 11, 32, 33, 9};
  in.spans = {span("user", 1, 2, 4, 5, 4), span("assistant", 5, 6, 8, 10, 8), span("user", 10, 11, 12, 13, 12),
              span("assistant", 13, 14, 16, 17, 16)};
  in.bos_token_id = 1;
  in.eos_token_id = 9;
  return in;
}

std::string labels(const ChatResult& r) {
  std::string s;
  for (size_t t = 0; t < r.labels.size(); ++t) s += (t ? " " : "") + (r.labels[t] == kIgnoreIndex ? std::string(".") : std::to_string(r.labels[t]));
  return s;
}

std::string reasons(const ChatResult& r) {
  std::string s;
  for (size_t t = 0; t < r.reasons.size(); ++t) {
    const char* n = chat_reason_name(r.reasons[t]);
    s += (t ? " " : "") + std::string(*n ? n : "+");
  }
  return s;
}

int count(const ChatResult& r, const std::string& id) {
  int n = 0;
  for (const auto& w : r.warnings) n += w.id == id ? 1 : 0;
  return n;
}

const ChatWarning& first(const ChatResult& r, const std::string& id) {
  for (const auto& w : r.warnings)
    if (w.id == id) return w;
  FAIL("no warning " << id);
  return r.warnings.front();
}

int trained(const ChatResult& r) {
  int n = 0;
  for (int x : r.labels) n += x != kIgnoreIndex ? 1 : 0;
  return n;
}

}  // namespace

TEST_SUITE("chat masks") {

TEST_CASE("assistant turns with every end-of-turn: content and end-of-turn trained, everything else -100 with its reason") {
  ChatResult r = chat_masks(two_turns());
  CHECK(labels(r) == ". . . . . . 30 31 9 . . . . . 32 33 9");
  CHECK(reasons(r) == "scaffolding role_header user user user role_header + + + scaffolding role_header user user role_header + + +");
  REQUIRE(r.turns.size() == 4);
  CHECK(r.turns[1].tokens == 5);   // header, 2 content, eot, newline
  CHECK(r.turns[1].trained == 3);
  CHECK(r.turns[1].ignored == 2);
  CHECK(r.turns[1].end_of_turn_trained == true);
  CHECK(r.turns[0].trained == 0);
  CHECK_FALSE(r.turns[0].end_of_turn_trained.has_value());  // only assistant turns report it
  CHECK(r.end_of_turn_token_id == 9);
  CHECK(r.warnings.empty());
}

TEST_CASE("end-of-turn policy: last trains only the final turn's, never trains none and warns that nothing teaches stopping") {
  ChatInput in = two_turns();
  in.end_of_turn = EndOfTurnPolicy::Last;
  ChatResult last = chat_masks(in);
  CHECK(labels(last) == ". . . . . . 30 31 . . . . . . 32 33 9");
  CHECK(chat_reason_name(last.reasons[8]) == std::string("end_of_turn"));
  REQUIRE(count(last, "end_of_turn_untrained") == 1);
  CHECK(first(last, "end_of_turn_untrained").severity == "info");  // another turn's is trained
  CHECK(first(last, "end_of_turn_untrained").positions == std::vector<int>{8});

  in.end_of_turn = EndOfTurnPolicy::Never;
  ChatResult never = chat_masks(in);
  CHECK(labels(never) == ". . . . . . 30 31 . . . . . . 32 33 .");
  CHECK(count(never, "end_of_turn_untrained") == 2);
  CHECK(first(never, "end_of_turn_untrained").severity == "warning");
}

TEST_CASE("role headers can be inside the target") {
  ChatInput in = two_turns();
  in.train_role_headers = true;
  CHECK(labels(chat_masks(in)) == ". . . . . 11 30 31 9 . . . . 11 32 33 9");
}

TEST_CASE("last assistant turn only: the earlier answer is context, and it is reported as an untrained assistant turn") {
  ChatInput in = two_turns();
  in.target = ChatTarget::LastAssistant;
  ChatResult r = chat_masks(in);
  CHECK(labels(r) == ". . . . . . . . . . . . . . 32 33 9");
  CHECK(reasons(r).find("earlier_turn earlier_turn earlier_turn earlier_turn earlier_turn") != std::string::npos);
  REQUIRE(count(r, "assistant_turn_untrained") == 1);
  CHECK(first(r, "assistant_turn_untrained").turn == 1);
  CHECK(first(r, "assistant_turn_untrained").severity == "error");
  CHECK(first(r, "assistant_turn_untrained").positions == std::vector<int>{5, 6, 7, 8, 9});
}

TEST_CASE("all tokens: labels equal input_ids everywhere, BOS and user text included") {
  ChatInput in = two_turns();
  in.target = ChatTarget::All;
  ChatResult r = chat_masks(in);
  CHECK(r.labels == in.input_ids);
  CHECK(trained(r) == 17);
}

TEST_CASE("prompt/completion: every token from completion_start on, trailing newline of the template included") {
  ChatInput in = two_turns();
  in.target = ChatTarget::Completion;
  in.completion_start = 14;
  ChatResult r = chat_masks(in);
  CHECK(labels(r) == ". . . . . . . . . . . . . . 32 33 9");
  CHECK(chat_reason_name(r.reasons[13]) == std::string("prompt"));
  CHECK(count(r, "prompt_not_prefix") == 0);
  in.prompt_is_prefix = false;
  CHECK(count(chat_masks(in), "prompt_not_prefix") == 1);
  in.completion_start.reset();
  CHECK_THROWS_AS(chat_masks(in), InputError);
}

TEST_CASE("generation blocks: the mask is used as is; without blocks every assistant turn is untrained") {
  ChatInput in = two_turns();
  in.target = ChatTarget::Generation;
  // Blocks around content + end-of-turn of turn 1 and content only of turn 3.
  in.generation_mask = std::vector<int>{0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0};
  ChatResult r = chat_masks(in);
  CHECK(labels(r) == ". . . . . . 30 31 9 . . . . . 32 33 .");
  CHECK(chat_reason_name(r.reasons[16]) == std::string("not_generation"));
  // Role spans with every end-of-turn would also train position 16: one token differs.
  REQUIRE(count(r, "generation_differs_from_roles") == 1);
  CHECK(first(r, "generation_differs_from_roles").positions == std::vector<int>{16});

  in.generation_mask.reset();
  ChatResult none = chat_masks(in);
  CHECK(trained(none) == 0);
  CHECK(count(none, "no_generation_blocks") == 1);
  CHECK(count(none, "assistant_turn_untrained") == 2);
}

TEST_CASE("response-template search: the last match wins, so a multi-turn row trains only its final answer") {
  ChatInput in = two_turns();
  in.target = ChatTarget::ResponseTemplate;
  in.response_template_ids = {11};
  ChatResult r = chat_masks(in);
  CHECK(labels(r) == ". . . . . . . . . . . . . . 32 33 9");
  CHECK(chat_reason_name(r.reasons[6]) == std::string("template_search"));
  CHECK(count(r, "assistant_turn_untrained") == 1);

  in.response_template_ids = {11, 99};  // tokenizes differently in context: never found
  ChatResult missing = chat_masks(in);
  CHECK(trained(missing) == 0);
  CHECK(count(missing, "response_template_not_found") == 1);
  CHECK(count(missing, "assistant_turn_untrained") == 2);
}

TEST_CASE("response-template search: the template's ids inside a message's text are taken for a header") {
  ChatInput in = two_turns();
  in.target = ChatTarget::ResponseTemplate;
  in.response_template_ids = {11};
  in.input_ids[11] = 11;  // the second user message's text is the header's id (a quoted chat log)
  // Last match wins: the real header at 13 still decides, so the labels do not change.
  ChatResult quiet = chat_masks(in);
  CHECK(labels(quiet) == ". . . . . . . . . . . . . . 32 33 9");
  REQUIRE(count(quiet, "response_template_in_message") == 1);
  CHECK(first(quiet, "response_template_in_message").turn == 2);
  CHECK(first(quiet, "response_template_in_message").severity == "warning");
  CHECK(first(quiet, "response_template_in_message").positions == std::vector<int>{11});
  // With an instruction template (10): human starts [1, 10], response ends [6, 12, 14]. TRL pairs
  // them in order: (1, 6) masks [0, 6), (10, 12) masks [10, 12); the third match has no pair, so
  // everything from 12 on is trained: the user's <eot> (12) and the assistant's header (13) too.
  in.instruction_template_ids = {10};
  ChatResult loud = chat_masks(in);
  CHECK(labels(loud) == ". . . . . . 30 31 9 12 . . 9 11 32 33 9");
  CHECK(loud.turns[2].trained == 1);
  CHECK(first(loud, "response_template_in_message").severity == "error");
  // Inside the last answer, with no instruction template: that match decides, and the answer's
  // first token is lost.
  ChatInput answer = two_turns();
  answer.target = ChatTarget::ResponseTemplate;
  answer.response_template_ids = {11};
  answer.input_ids[14] = 11;
  ChatResult cut = chat_masks(answer);
  CHECK(labels(cut) == ". . . . . . . . . . . . . . . 33 9");
  CHECK(first(cut, "response_template_in_message").turn == 3);
  CHECK(first(cut, "response_template_in_message").severity == "error");
}

TEST_CASE("pad == end-of-turn masked by id: every real end-of-turn loses its label") {
  ChatInput in = two_turns();
  in.pad_token_id = 9;
  ChatResult by_position = chat_masks(in);
  CHECK(trained(by_position) == 6);
  CHECK(first(by_position, "pad_is_end_of_turn").severity == "info");

  in.pad_masking = PadMasking::ById;
  ChatResult by_id = chat_masks(in);
  CHECK(labels(by_id) == ". . . . . . 30 31 . . . . . . 32 33 .");
  CHECK(chat_reason_name(by_id.reasons[8]) == std::string("pad_id"));
  CHECK(first(by_id, "pad_is_end_of_turn").severity == "error");
  CHECK(first(by_id, "pad_is_end_of_turn").positions == std::vector<int>{8, 16});
  CHECK(count(by_id, "end_of_turn_untrained") == 2);
}

TEST_CASE("eos_token that is not the end-of-turn token (Llama 3: <|end_of_text|> vs <|eot_id|>)") {
  ChatInput in = two_turns();
  in.eos_token_id = 2;
  ChatResult r = chat_masks(in);
  REQUIRE(count(r, "eos_differs_from_end_of_turn") == 1);
  CHECK(first(r, "eos_differs_from_end_of_turn").positions == std::vector<int>{8, 16});
}

TEST_CASE("earlier turns ending with another token (gpt-oss: <|end|> = 8, the last answer <|return|> = 9): the last turn's decides") {
  ChatInput in = two_turns();
  in.input_ids[8] = 8;  // the first answer ends with <|end|>, the last with <|return|> (9 = eos_token)
  ChatResult r = chat_masks(in);
  CHECK(r.end_of_turn_token_id == 9);
  CHECK(count(r, "eos_differs_from_end_of_turn") == 0);
  CHECK(labels(r) == ". . . . . . 30 31 8 . . . . . 32 33 9");  // both end-of-turn tokens trained (every)
  in.eos_token_id = 8;  // eos_token <|end|>: generation would not stop after the last answer
  ChatResult wrong = chat_masks(in);
  REQUIRE(count(wrong, "eos_differs_from_end_of_turn") == 1);
  CHECK(first(wrong, "eos_differs_from_end_of_turn").positions == std::vector<int>{16});
}

TEST_CASE("turn by turn: the mask is used as is; where its ranges slide off the turns, the tokens that differ from the role spans are named") {
  ChatInput in = two_turns();
  in.target = ChatTarget::TurnByTurn;
  in.turn_mask = std::vector<int>{0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1};  // the role spans' own answer
  ChatResult same = chat_masks(in);
  CHECK(labels(same) == ". . . . . . 30 31 9 . . . . . 32 33 9");
  CHECK(reasons(same) == "turn_range turn_range turn_range turn_range turn_range turn_range + + + turn_range turn_range turn_range turn_range turn_range + + +");
  CHECK(count(same, "turn_mask_differs_from_roles") == 0);
  // The second user turn's range measured on a longer prefix render starts three tokens late
  // (position 12 instead of 9): the newline, the user header and its text become targets.
  in.turn_mask = std::vector<int>{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1};
  in.prefix_breaks = {1};
  ChatResult slid = chat_masks(in);
  CHECK(labels(slid) == ". . . . . . 30 31 9 12 10 22 . . 32 33 9");
  REQUIRE(count(slid, "turn_mask_differs_from_roles") == 1);
  CHECK(first(slid, "turn_mask_differs_from_roles").positions == std::vector<int>{9, 10, 11});
  CHECK(slid.turns[2].trained == 2);
  CHECK(count(slid, "not_prefix_stable") == 1);
  in.turn_mask->pop_back();
  CHECK_THROWS_AS(chat_masks(in), InputError);
}

TEST_CASE("truncation at max_length: cutting the last answer, or only its end-of-turn token, is an error") {
  ChatInput in = two_turns();
  in.max_length = 15;  // keeps positions 0..14: the answer loses 33 and the end-of-turn
  ChatResult cut = chat_masks(in);
  CHECK(cut.input_ids.size() == 15);
  CHECK(cut.truncated_tokens == 2);
  CHECK(cut.turns[3].truncated_tokens == 2);
  CHECK(count(cut, "truncated_answer") == 1);

  in.max_length = 16;  // keeps the whole answer, drops its end-of-turn
  ChatResult eot = chat_masks(in);
  CHECK(count(eot, "truncated_answer") == 0);
  CHECK(count(eot, "truncated_end_of_turn") == 1);
  CHECK_FALSE(eot.turns[3].end_of_turn_trained.has_value());

  in.max_length = 17;
  CHECK(chat_masks(in).warnings.empty());

  in.max_length = 13;  // the last assistant turn (13..16) is cut away entirely
  ChatResult gone = chat_masks(in);
  CHECK(count(gone, "truncated_answer") == 1);
  REQUIRE(count(gone, "assistant_turn_untrained") == 1);
  CHECK(first(gone, "assistant_turn_untrained").turn == 3);
  CHECK(first(gone, "assistant_turn_untrained").positions.empty());

  in.max_length = 10;
  in.truncation_side = Side::Left;  // keeps the last 10 tokens: positions 7..16
  ChatResult left = chat_masks(in);
  CHECK(left.input_ids.front() == 31);
  CHECK(count(left, "truncated_answer") == 0);
}

TEST_CASE("a template that is not prefix-stable is reported at the message it re-renders") {
  ChatInput in = two_turns();
  in.prefix_breaks = {1};
  ChatResult r = chat_masks(in);
  REQUIRE(count(r, "not_prefix_stable") == 1);
  CHECK(first(r, "not_prefix_stable").turn == 1);
  CHECK(first(r, "not_prefix_stable").positions == std::vector<int>{5, 6, 7, 8, 9});
}

TEST_CASE("doubled BOS: the template wrote one and add_special_tokens=True added another") {
  ChatInput in = two_turns();
  in.input_ids.insert(in.input_ids.begin(), 1);
  for (ChatSpan& s : in.spans) {
    s.header_begin += 1, s.header_end += 1, s.content_begin += 1, s.content_end += 1, s.tail_begin += 1, s.tail_end += 1;
    s.end_of_turn += 1;
  }
  ChatResult r = chat_masks(in);
  CHECK(count(r, "doubled_bos") == 1);
  CHECK(first(r, "doubled_bos").positions == std::vector<int>{0, 1});
  CHECK(count(chat_masks(two_turns()), "doubled_bos") == 0);
}

TEST_CASE("a message the template left out, and a token holding message and template text") {
  ChatInput in = two_turns();
  ChatSpan system;
  system.role = "system";
  system.rendered = false;
  in.spans.insert(in.spans.begin(), system);
  in.boundary_tokens = {7};
  ChatResult r = chat_masks(in);
  CHECK(count(r, "message_not_rendered") == 1);
  CHECK(first(r, "message_not_rendered").turn == 0);
  CHECK(r.turns[0].tokens == 0);
  REQUIRE(count(r, "boundary_token") == 1);
  CHECK(first(r, "boundary_token").turn == 2);
}

TEST_CASE("every warning id is listed once in the page's order") {
  const auto& ids = chat_warning_ids();
  CHECK(ids.size() == 16);
  CHECK(ids.front() == "assistant_turn_untrained");
}

TEST_CASE("bad spans are refused with the field named") {
  ChatInput gap = two_turns();
  gap.spans[1].content_begin = 7;  // header [5, 6) then content [7, 8): position 6 is nobody's
  CHECK_THROWS_WITH_AS(chat_masks(gap), doctest::Contains("header, content and tail"), InputError);
  ChatInput overlap = two_turns();
  overlap.spans[1].header_begin = 4;  // the user's tail is [4, 5)
  CHECK_THROWS_WITH_AS(chat_masks(overlap), doctest::Contains("claim the same tokens"), InputError);
  ChatInput clash = two_turns();
  clash.spans[2] = span("user", 9, 11, 12, 13, 12);
  CHECK_THROWS_WITH_AS(chat_masks(clash), doctest::Contains("claim the same tokens"), InputError);
  ChatInput outside = two_turns();
  outside.spans[3].tail_end = 18;
  CHECK_THROWS_AS(chat_masks(outside), InputError);
  ChatInput eot = two_turns();
  eot.spans[1].end_of_turn = 7;
  CHECK_THROWS_WITH_AS(chat_masks(eot), doctest::Contains("outside the tail"), InputError);
  ChatInput mask = two_turns();
  mask.generation_mask = std::vector<int>{1, 0};
  CHECK_THROWS_WITH_AS(chat_masks(mask), doctest::Contains("generation_mask"), InputError);
}

}  // TEST_SUITE

TEST_SUITE("response template search") {

TEST_CASE("without an instruction template the last match wins") {
  TemplateSearch s = search_response_template({1, 9, 5, 9, 6, 7}, {9}, {});
  CHECK(s.labels == std::vector<int>{-100, -100, -100, -100, 6, 7});
  CHECK(s.response_found);
  CHECK(s.response_ends == std::vector<int>{2, 4});
}

TEST_CASE("not found: the whole row is ignored") {
  TemplateSearch s = search_response_template({1, 9, 5}, {8}, {});
  CHECK(s.labels == std::vector<int>{-100, -100, -100});
  CHECK_FALSE(s.response_found);
}

TEST_CASE("with an instruction template human and response spans alternate") {
  // 7 = human marker, 9 = response marker: [7 a 9 b 7 c 9 d] trains b and d.
  TemplateSearch s = search_response_template({7, 1, 9, 2, 7, 3, 9, 4}, {9}, {7});
  CHECK(s.labels == std::vector<int>{-100, -100, -100, 2, -100, -100, -100, 4});
  // A trailing human turn with no response after it is ignored to the end.
  TemplateSearch t = search_response_template({7, 1, 9, 2, 7, 3}, {9}, {7});
  CHECK(t.labels == std::vector<int>{-100, -100, -100, 2, -100, -100});
}

}  // TEST_SUITE

TEST_SUITE("chat command") {

TEST_CASE("JSON in, JSON out: labels, reasons, turns and warning counts") {
  const char* request = R"({"input_ids":[1,10,20,9,11,30,9],
    "messages":[{"role":"user","header":[1,2],"content":[2,3],"tail":[3,4],"end_of_turn":3},
                {"role":"assistant","header":[4,5],"content":[5,6],"tail":[6,7],"end_of_turn":6}],
    "bos_token_id":1,"eos_token_id":9,"pad_token_id":9,"pad_masking":"pad_id","pad_token":"<eot>"})";
  ApiResult r = run_command("chat", request);
  REQUIRE(r.ok);
  CHECK(r.json.find(R"("labels":[-100,-100,-100,-100,-100,30,-100])") != std::string::npos);
  CHECK(r.json.find(R"("label_reasons":["scaffolding","role_header","user","user","role_header","","pad_id"])") != std::string::npos);
  CHECK(r.json.find(R"("pad_is_end_of_turn":1)") != std::string::npos);
  CHECK(r.json.find(R"("doubled_bos":0)") != std::string::npos);
}

TEST_CASE("bounds and names: unknown role, oversized list, ids outside the vocabulary") {
  ApiResult role = run_command("chat", R"({"input_ids":[1],"messages":[{"role":"bot","header":[0,0],"content":[0,1],"tail":[1,1]}]})");
  CHECK_FALSE(role.ok);
  CHECK(role.field == "messages[0].role");
  std::string big = R"({"input_ids":[)";
  for (int i = 0; i <= kMaxChatTokens; ++i) big += i ? ",1" : "1";
  big += R"(],"messages":[]})";
  ApiResult many = run_command("chat", big);
  CHECK_FALSE(many.ok);
  CHECK(many.field == "input_ids");
  ApiResult vocab = run_command("chat", R"({"input_ids":[5],"vocab_size":5,"messages":[]})");
  CHECK(vocab.field == "input_ids[0]");
}

}  // TEST_SUITE
