// response_template.cpp — see response_template.hpp.
#include "response_template.hpp"

#include "batch.hpp"

namespace masklab {

namespace {

// Start positions where `needle` occurs in `row` (compared against labels, as TRL does: a -100
// already there never matches).
std::vector<int> matches(const std::vector<int>& row, const std::vector<int>& needle) {
  std::vector<int> out;
  if (needle.empty() || needle.size() > row.size()) return out;
  for (size_t i = 0; i + needle.size() <= row.size(); ++i) {
    bool same = true;
    for (size_t j = 0; j < needle.size() && same; ++j) same = row[i + j] == needle[j];
    if (same) out.push_back(static_cast<int>(i));
  }
  return out;
}

void ignore(TemplateSearch& s, int from, int to) {
  for (int t = from; t < to && t < static_cast<int>(s.labels.size()); ++t) {
    if (s.labels[t] != kIgnoreIndex) s.masked[t] = 1;
    s.labels[t] = kIgnoreIndex;
  }
}

}  // namespace

TemplateSearch search_response_template(const std::vector<int>& labels, const std::vector<int>& response_ids,
                                        const std::vector<int>& instruction_ids) {
  TemplateSearch s;
  s.labels = labels;
  s.masked.assign(labels.size(), 0);
  const int T = static_cast<int>(labels.size());
  for (int start : matches(labels, response_ids)) s.response_ends.push_back(start + static_cast<int>(response_ids.size()));
  s.response_found = !s.response_ends.empty();

  if (instruction_ids.empty()) {
    if (!s.response_found) {
      ignore(s, 0, T);
      return s;
    }
    ignore(s, 0, s.response_ends.back());  // the loop in TRL overwrites its index: last match wins
    return s;
  }

  std::vector<int> human = matches(labels, instruction_ids);
  s.instruction_found = !human.empty();
  if (!s.response_found || !s.instruction_found) {
    ignore(s, 0, T);
    return s;
  }
  if (human.front() > s.response_ends.front()) human.insert(human.begin(), 0);
  const size_t pairs = std::min(human.size(), s.response_ends.size());
  for (size_t i = 0; i < pairs; ++i) {
    if (i == 0) ignore(s, 0, s.response_ends[i]);
    else ignore(s, human[i], s.response_ends[i]);
  }
  if (s.response_ends.size() < human.size()) ignore(s, human.back(), T);
  return s;
}

}  // namespace masklab
