// test_tokenizer.cpp — the tiny word-level tokenizer behind text_features (tokenizer.cpp).
//
// Rules from tokenizer.hpp: ids 0–4 are <pad> <bos> <eos> <user> <assistant>; any other <name>
// is one special token; words are runs of letters, digits, apostrophes (and '_' and UTF-8 bytes);
// every other non-space character is a token of its own; new tokens get ids in order of first
// appearance.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tokenizer.hpp"

using namespace masklab;

namespace {
using Tokens = std::vector<std::string>;
}

TEST_SUITE("tokenizer") {

TEST_CASE("the header's example: \"Hi, Bob<eos>\"") {
  CHECK(split_tokens("Hi, Bob<eos>") == Tokens{"Hi", ",", "Bob", "<eos>"});
}

TEST_CASE("a new vocabulary holds exactly the five special tokens, in id order") {
  Vocabulary v;
  CHECK(v.tokens() == Tokens{"<pad>", "<bos>", "<eos>", "<user>", "<assistant>"});
  CHECK(v.size() == 5);
  CHECK(v.id_of("<pad>") == kPadId);
  CHECK(v.id_of("<eos>") == kEosId);
  CHECK(v.id_of("<assistant>") == kAssistantId);
  CHECK(v.size() == 5);  // looking up a special token adds nothing
}

TEST_CASE("new tokens get ids 5, 6, ... in order of first appearance, shared across texts") {
  Vocabulary v;
  CHECK(encode("a b a", v) == std::vector<int>{5, 6, 5});
  CHECK(encode("b c", v) == std::vector<int>{6, 7});
  CHECK(v.size() == 8);
  CHECK(v.tokens()[7] == "c");
}

TEST_CASE("special tokens in the text map to their fixed ids") {
  Vocabulary v;
  CHECK(encode("<user> hi <assistant> yo <eos>", v) == std::vector<int>{kUserId, 5, kAssistantId, 6, kEosId});
}

TEST_CASE("any <name> is one token, including Llama-3 style <|eot_id|>") {
  CHECK(split_tokens("ok<|eot_id|>") == Tokens{"ok", "<|eot_id|>"});
  Vocabulary v;
  CHECK(encode("<|eot_id|> <|eot_id|>", v) == std::vector<int>{5, 5});
}

TEST_CASE("a '<' that does not open a <name> is punctuation") {
  CHECK(split_tokens("<>") == Tokens{"<", ">"});
  CHECK(split_tokens("a<b") == Tokens{"a", "<", "b"});
  CHECK(split_tokens("< b>") == Tokens{"<", "b", ">"});
}

TEST_CASE("words keep apostrophes, digits, underscores and UTF-8 letters together") {
  CHECK(split_tokens("don't x_1 caf\xc3\xa9") == Tokens{"don't", "x_1", "caf\xc3\xa9"});
}

TEST_CASE("punctuation splits into single characters; whitespace is dropped") {
  CHECK(split_tokens("\t a.b!\n\r c ") == Tokens{"a", ".", "b", "!", "c"});
  CHECK(split_tokens("   ").empty());
  CHECK(split_tokens("").empty());
}

TEST_CASE("a string's ids do not depend on its context (unlike a real BPE, docs/semantics.md §3.4)") {
  Vocabulary v;
  std::vector<int> alone = encode("Answer:", v);
  std::vector<int> after = encode("\nAnswer:", v);
  CHECK(alone == after);
}

}  // TEST_SUITE
