// tokenizer.hpp — a tiny word-level tokenizer so learners can type text into the grid.
//
// Fixed special tokens (ids 0–4): <pad> <bos> <eos> <user> <assistant>; any other <name> in
// the text is one special token too. Words are runs of letters, digits and apostrophes; every
// other non-space character is a token of its own. Ids are given in order of first appearance,
// so a batch's ids are small and readable. Not a BPE: real tokenizers split words into pieces,
// and a string's ids depend on its context (docs/semantics.md §3.4) — this one does not.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace masklab {

constexpr int kPadId = 0, kBosId = 1, kEosId = 2, kUserId = 3, kAssistantId = 4;

class Vocabulary {
 public:
  Vocabulary();                            // the five special tokens
  int id_of(const std::string& token);     // adds the token when new; a hash lookup
  const std::vector<std::string>& tokens() const { return tokens_; }
  int size() const { return static_cast<int>(tokens_.size()); }

 private:
  std::vector<std::string> tokens_;
  std::unordered_map<std::string, int> ids_;
};

// Example: "Hi, Bob<eos>" -> tokens "Hi" "," "Bob" "<eos>".
// Stops after max_tokens tokens (the rest of the text is not read).
std::vector<std::string> split_tokens(std::string_view text, std::size_t max_tokens = static_cast<std::size_t>(-1));

// Tokens -> ids, growing the vocabulary; at most max_tokens of them (see split_tokens).
std::vector<int> encode(std::string_view text, Vocabulary& vocab, std::size_t max_tokens = static_cast<std::size_t>(-1));

}  // namespace masklab
