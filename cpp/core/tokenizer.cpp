// tokenizer.cpp — see tokenizer.hpp.
#include "tokenizer.hpp"

namespace masklab {

namespace {
bool is_word_byte(unsigned char c) {
  // Bytes >= 0x80 belong to UTF-8 letters: keep them inside words rather than splitting a
  // character into meaningless single bytes.
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\'' ||
         c == '_' || c >= 0x80;
}
bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
}  // namespace

Vocabulary::Vocabulary() : tokens_{"<pad>", "<bos>", "<eos>", "<user>", "<assistant>"} {
  for (size_t i = 0; i < tokens_.size(); ++i) ids_.emplace(tokens_[i], static_cast<int>(i));
}

int Vocabulary::id_of(const std::string& token) {
  if (auto it = ids_.find(token); it != ids_.end()) return it->second;
  const int id = static_cast<int>(tokens_.size());
  ids_.emplace(token, id);
  tokens_.push_back(token);
  return id;
}

std::vector<std::string> split_tokens(std::string_view text, std::size_t max_tokens) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size() && out.size() < max_tokens) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (is_space(c)) {
      ++i;
      continue;
    }
    if (c == '<') {  // <name> is one special token
      size_t j = i + 1;
      while (j < text.size() && (is_word_byte(static_cast<unsigned char>(text[j])) || text[j] == '|')) ++j;
      if (j < text.size() && text[j] == '>' && j > i + 1) {
        out.emplace_back(text.substr(i, j + 1 - i));
        i = j + 1;
        continue;
      }
    }
    if (is_word_byte(c)) {
      size_t j = i;
      while (j < text.size() && is_word_byte(static_cast<unsigned char>(text[j]))) ++j;
      out.emplace_back(text.substr(i, j - i));
      i = j;
      continue;
    }
    out.emplace_back(1, static_cast<char>(c));
    ++i;
  }
  return out;
}

std::vector<int> encode(std::string_view text, Vocabulary& vocab, std::size_t max_tokens) {
  std::vector<int> ids;
  for (const auto& token : split_tokens(text, max_tokens)) ids.push_back(vocab.id_of(token));
  return ids;
}

}  // namespace masklab
