// masklab_bench — times the native core and generates the requests every bench and limit test uses.
//
//   masklab_bench [ITERATIONS]          ms of CPU per iteration of collate + loss (B=8, T=512, V=64)
//   masklab_bench --typed [ITERATIONS]  the same on the typed-array path (tensor_api.hpp)
//   masklab_bench --print NAME          prints request NAME (collate, loss, or a limit case), so the
//                                        wasm side and tests/node/limits.test.mjs run the same bytes
//   masklab_bench --cases               lists the limit cases: name, command, answered|refused
//   masklab_bench --limits CLI          runs every limit case through the CLI binary at path CLI
//                                        and prints CPU time, wall time and peak memory of each
//   masklab_bench --print doctor|doctor-options  the doctor's printed batch, and its options JSON
//   masklab_bench --train MODEL STEPS   prints ms per training step of the Train page's run
//                                        (default settings, fixed collator; scripts/bench/train.mjs)
//
// Speed workload: B=8 rows, T=512 (longest row), V=64. Row b has 512 - 48*b tokens (512, 464, ...,
// 176) so padding is real; token ids and logits are simple integer formulas, identical every run.
// Timing goes through masklab::run_command, i.e. JSON parsing and writing are included, exactly as
// the CLI and the browser pay for them. Times are CPU time of this thread (the machine is shared:
// wall time under load measures the neighbours), so they are comparable between runs.
//
// Limit cases: for each command, the largest request it accepts (built from the constants in
// limits.hpp, so they follow a change of limit) and one just over a limit, which must be refused.
// doctor: a 64 × 4096 batch printed in full (torch.set_printoptions(profile='full')) as PyTorch
// prints it — input_ids, attention_mask, labels, about 5 MB of text — with Llama 3 ids, rows of
// 4096 - 48·b tokens padded with 128004, and labels copied from input_ids (so the pads are
// trained and every figure, the bigram's refit included, is computed).
// A figure printer, not a test: nothing is asserted here (tests/node/limits.test.mjs asserts).

#include "api.hpp"
#include "chat_requests.hpp"
#include "inspect.hpp"
#include "limits.hpp"
#include "padding.hpp"
#include "printed_batch.hpp"
#include "tensor_api.hpp"
#include "training.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

using namespace masklab;

constexpr int kB = 8;      // batch rows
constexpr int kT = 512;    // longest row = padded length
constexpr int kV = 64;     // vocabulary size
constexpr int kPad = 0;    // pad_token_id; real ids are 1..V-1 so pads are distinguishable

int row_length(int b) { return kT - 48 * b; }
int token_id(int b, int t) { return 1 + (b * 31 + t * 7) % (kV - 1); }

// collate: features[b].input_ids with row_length(b) ids each.
std::string collate_request() {
  std::string s = "{\"features\":[";
  for (int b = 0; b < kB; ++b) {
    s += b ? ",{\"input_ids\":[" : "{\"input_ids\":[";
    for (int t = 0; t < row_length(b); ++t) {
      if (t) s += ',';
      s += std::to_string(token_id(b, t));
    }
    s += "]}";
  }
  s += "],\"pad_token_id\":" + std::to_string(kPad) + ",\"vocab_size\":" + std::to_string(kV) + "}";
  return s;
}

// loss: logits [B][T][V] with values k/4 - 2 for small integers k (exact in binary, short in
// decimal), labels [B][T] = the token ids with -100 where the row is padded.
std::string loss_request() {
  static const char* kValues[] = {"-2", "-1.75", "-1.5", "-1.25", "-1", "-0.75", "-0.5", "-0.25",
                                  "0",  "0.25",  "0.5",  "0.75",  "1",  "1.25",  "1.5",  "1.75"};
  std::string s;
  s.reserve(size_t(kB) * kT * kV * 5);
  s = "{\"logits\":[";
  for (int b = 0; b < kB; ++b) {
    s += b ? ",[" : "[";
    for (int t = 0; t < kT; ++t) {
      s += t ? ",[" : "[";
      for (int v = 0; v < kV; ++v) {
        if (v) s += ',';
        s += kValues[(b * 5 + t * 3 + v * 11) % 16];
      }
      s += ']';
    }
    s += ']';
  }
  s += "],\"labels\":[";
  for (int b = 0; b < kB; ++b) {
    s += b ? ",[" : "[";
    for (int t = 0; t < kT; ++t) {
      if (t) s += ',';
      s += t < row_length(b) ? std::to_string(token_id(b, t)) : "-100";
    }
    s += ']';
  }
  s += "],\"shift\":true,\"ignore_index\":-100,\"reduction\":\"mean\"}";
  return s;
}

// One tensor as torch/_tensor_str.py prints it at the default linewidth 80: every value
// right-aligned to the widest, floor((80 - 8) / (width + 2)) values per line, continuation lines
// indented 9 spaces, rows 8.
template <class Value>
std::string printed_tensor(int rows, int cols, Value value) {
  size_t width = 1;
  for (int b = 0; b < rows; ++b)
    for (int t = 0; t < cols; ++t) width = std::max(width, std::to_string(value(b, t)).size());
  const int per_line = static_cast<int>((80 - 8) / (width + 2));
  std::string s = "tensor([";
  for (int b = 0; b < rows; ++b) {
    s += b ? ",\n        [" : "[";
    for (int t = 0; t < cols; ++t) {
      if (t) s += t % per_line == 0 ? ",\n         " : ", ";
      const std::string v = std::to_string(value(b, t));
      s.append(width - v.size(), ' ');
      s += v;
    }
    s += ']';
  }
  return s + "])";
}

constexpr int kDoctorB = 64, kDoctorT = 4096, kDoctorPad = 128004, kDoctorEos = 128001;

// Rows of 4096, 4048, …, 1072 tokens, repeating every 64 rows (the limit case has 256).
int doctor_length(int b) { return kDoctorT - 48 * (b % 64); }
int doctor_id(int b, int t) {
  if (t >= doctor_length(b)) return kDoctorPad;
  if (t == 0) return 128000;
  if (t == doctor_length(b) - 1) return kDoctorEos;
  return 1000 + static_cast<int>((b * 7919LL + t * 104729LL) % 120000);
}

std::string doctor_text() {
  return "{'input_ids': " + printed_tensor(kDoctorB, kDoctorT, doctor_id) + ", 'attention_mask': " +
         printed_tensor(kDoctorB, kDoctorT, [](int b, int t) { return t < doctor_length(b) ? 1 : 0; }) +
         ", 'labels': " + printed_tensor(kDoctorB, kDoctorT, doctor_id) + "}";
}

std::string doctor_options() {
  return "{\"pad_token_id\":" + std::to_string(kDoctorPad) + ",\"eos_token_id\":" + std::to_string(kDoctorEos) + "}";
}

// ---------------------------------------------------------------------------------------------
// Limit cases. Numbers are written the way Python's json.dumps writes float32 logits turned into
// floats: up to 17 significant digits ("-1.2345678901234567"), the longest realistic text.

std::string real_number(std::uint64_t i) {
  std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  const double v = (static_cast<double>(x % 2000001) - 1000000.0) / 314159.0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// [d0][d1][d2] of real numbers.
void append_cube(std::string& s, long d0, long d1, long d2, std::uint64_t seed) {
  s += '[';
  for (long a = 0; a < d0; ++a) {
    s += a ? ",[" : "[";
    for (long b = 0; b < d1; ++b) {
      s += b ? ",[" : "[";
      for (long c = 0; c < d2; ++c) {
        if (c) s += ',';
        s += real_number(seed++);
      }
      s += ']';
    }
    s += ']';
  }
  s += ']';
}

// [rows][cols] of integers id(r, c).
void append_int_rows(std::string& s, long rows, long cols, const std::function<long(long, long)>& id) {
  s += '[';
  for (long r = 0; r < rows; ++r) {
    s += r ? ",[" : "[";
    for (long c = 0; c < cols; ++c) {
      if (c) s += ',';
      s += std::to_string(id(r, c));
    }
    s += ']';
  }
  s += ']';
}

// collate: B rows of T tokens, each with labels, completion_mask and assistant_masks (the most
// values a collate request can carry per token); one extra token in row 0 when over.
std::string collate_case(bool over) {
  const long rows = 256;
  const long T = kMaxBatchTokens / rows;
  std::string s = "{\"features\":[";
  for (long b = 0; b < rows; ++b) {
    const long n = T + (over && b == 0 ? 1 : 0);
    s += b ? ",{" : "{";
    s += "\"input_ids\":";
    std::string ids;
    append_int_rows(ids, 1, n, [&](long, long t) { return 1 + (b * 131 + t * 7) % 31999; });
    s += ids.substr(1, ids.size() - 2);
    s += ",\"labels\":";
    std::string labels;
    append_int_rows(labels, 1, n, [&](long, long t) { return t < 16 ? -100 : 1 + (b * 131 + t * 7) % 31999; });
    s += labels.substr(1, labels.size() - 2);
    for (const char* mask : {"completion_mask", "assistant_masks"}) {
      s += std::string(",\"") + mask + "\":";
      std::string m;
      append_int_rows(m, 1, n, [&](long, long t) { return t < 16 ? 0 : 1; });
      s += m.substr(1, m.size() - 2);
    }
    s += '}';
  }
  s += "],\"pad_token_id\":0,\"eos_token_id\":2,\"label_policy\":\"given\",\"pad_to_multiple_of\":8}";
  return s;
}

// loss: B x T x V logits at the value limit; V + 1 when over. With the gradient: at the gradient's
// answer limit.
std::string loss_values(long B, long T, long V, bool gradient) {
  std::string s = "{\"logits\":";
  append_cube(s, B, T, V, 1);
  s += ",\"labels\":";
  append_int_rows(s, B, T, [&](long b, long t) { return t < 8 ? -100 : (b * 17 + t * 13) % V; });
  return s + (gradient ? ",\"gradient\":true}" : "}");
}
std::string loss_case(bool over) { return loss_values(4, 512, static_cast<long>(kMaxLossValues) / 2048 + over, false); }
std::string loss_gradient_case(bool over) {
  return loss_values(4, 512, static_cast<long>(kMaxGradientValues) / 2048 + over, true);
}

// accumulate: 4 micro-batches sharing the value limit; one more position in the last when over.
std::string accumulate_case(bool over) {
  const long parts = 4, T = 512;
  const long V = static_cast<long>(kMaxLossValues) / (parts * T);
  std::string s = "{\"micro_batches\":[";
  for (long m = 0; m < parts; ++m) {
    const long t_here = T + (over && m == parts - 1 ? 1 : 0);
    s += m ? ",{\"logits\":" : "{\"logits\":";
    append_cube(s, 1, t_here, V, static_cast<std::uint64_t>(m) * 1000003);
    s += ",\"labels\":";
    append_int_rows(s, 1, t_here, [&](long, long t) { return (t * 13 + m) % V; });
    s += '}';
  }
  s += "]}";
  return s;
}

// attention: B x T x T cells at the answer limit, D at the work limit; T + 1 when over.
std::string attention_case(bool over) {
  long T = 1;
  while (static_cast<std::uint64_t>((T + 1) * (T + 1)) <= kMaxAttentionCells) ++T;
  const long D = static_cast<long>(kMaxAttentionWork / static_cast<std::uint64_t>(T * T));
  T += over ? 1 : 0;
  std::string s = "{";
  const char* names[] = {"q", "k", "v"};
  for (int i = 0; i < 3; ++i) {
    s += std::string(i ? ",\"" : "\"") + names[i] + "\":";
    append_cube(s, 1, T, D, static_cast<std::uint64_t>(i) * 7777777);
  }
  s += ",\"attention_mask\":";
  append_int_rows(s, 1, T, [](long, long t) { return t < 8 ? 0 : 1; });
  s += "}";
  return s;
}

// inspect: the full grid (16 x 256) of distinct ids, named by a vocab as long as the tiny
// model's logit limit allows; one name more when over.
std::string inspect_case(bool over) {
  const long rows = kMaxInspectRows, T = kMaxInspectPositions;
  const long names = static_cast<long>(kMaxInspectModelValues) / (rows * T) + (over ? 1 : 0);
  std::string s = "{\"features\":[";
  for (long b = 0; b < rows; ++b) {
    s += b ? ",{\"input_ids\":" : "{\"input_ids\":";
    std::string ids;
    append_int_rows(ids, 1, T, [&](long, long t) { return 1 + b * T + t; });
    s += ids.substr(1, ids.size() - 2) + "}";
  }
  s += "],\"pad_token_id\":0,\"label_policy\":\"input_ids\",\"vocab\":[";
  for (long i = 0; i < names; ++i) s += (i ? ",\"w" : "\"w") + std::to_string(i) + "\"";
  s += "]}";
  return s;
}

// inspect from text: 16 texts of the most tokens one text may give (words from a small set per
// row, so the vocabulary stays within the tiny model's bound), truncated to the grid's width;
// one word more in the first text when over.
std::string inspect_text_case(bool over) {
  std::string s = "{\"text_features\":[";
  for (int b = 0; b < kMaxInspectRows; ++b) {
    s += b ? ",\"" : "\"";
    const int words = kMaxInspectTextTokens + (over && b == 0 ? 1 : 0);
    for (int w = 0; w < words; ++w) s += (w ? " w" : "w") + std::to_string(b * 300 + (w * 7) % 300);
    s += '"';
  }
  s += "],\"add_bos\":false,\"add_eos\":false,\"padding\":\"max_length\",\"max_length\":" +
       std::to_string(kMaxInspectPositions) + ",\"truncation\":true}";
  return s;
}

// chat: the longest conversation (kMaxChatTokens tokens, each with its text), kMaxChatMessages
// messages, a generation mask, the response-template search with the longest templates, every
// message in prefix_breaks and the most boundary tokens; one token more when over.
std::string chat_case(bool over) {
  const long T = kMaxChatTokens + (over ? 1 : 0), M = kMaxChatMessages, per = kMaxChatTokens / M;
  std::string s = "{\"input_ids\":";
  // Every id is the response template's id, so the template matches at every position: the
  // search's worst case (T x 512 comparisons).
  append_int_rows(s, 1, T, [](long, long) { return 10; });
  s.erase(std::string("{\"input_ids\":").size(), 1);  // [[...]] -> [...]
  s.pop_back();
  s += ",\"tokens\":[";
  for (long t = 0; t < T; ++t) s += (t ? ",\"w" : "\"w") + std::to_string(t % 7) + "\"";
  s += "],\"messages\":[";
  for (long m = 0; m < M; ++m) {
    const long a = m * per, e = m == M - 1 ? T : (m + 1) * per;
    s += std::string(m ? "," : "") + "{\"role\":\"" + (m % 2 ? "assistant" : "user") + "\",\"header\":[" +
         std::to_string(a) + "," + std::to_string(a + 2) + "],\"content\":[" + std::to_string(a + 2) + "," +
         std::to_string(e - 2) + "],\"tail\":[" + std::to_string(e - 2) + "," + std::to_string(e) +
         "],\"end_of_turn\":" + std::to_string(e - 1) + "}";
  }
  s += "],\"generation_mask\":";
  std::string mask;
  append_int_rows(mask, 1, T, [](long, long t) { return (t / 131) % 2; });
  s += mask.substr(1, mask.size() - 2);
  s += ",\"target\":\"response_template\",\"response_template_ids\":[";
  for (int i = 0; i < kMaxTemplateIds; ++i) s += i ? ",10" : "10";
  s += "],\"instruction_template_ids\":[";
  for (int i = 0; i < kMaxTemplateIds; ++i) s += i ? ",11" : "11";
  s += "],\"prefix_breaks\":[";
  for (long m = 0; m < M; ++m) s += (m ? "," : "") + std::to_string(m);
  s += "],\"boundary_tokens\":[";
  for (long i = 0; i < kMaxBoundaryTokens; ++i) s += (i ? "," : "") + std::to_string(i * (kMaxChatTokens / kMaxBoundaryTokens));
  s += "],\"bos_token_id\":10,\"eos_token_id\":16,\"pad_token_id\":16,\"eos_token\":\"w6\",\"max_length\":" +
       std::to_string(kMaxChatTokens) + "}";
  return s;
}

// doctor: the most numbers the doctor reads (kMaxPastedNumbers), as print(batch) prints a
// 256 × 4096 batch of four fields — input_ids, attention_mask, labels, position_ids — about 29 MB
// of text (under kMaxPastedBytes). Over: one more field of one number, refused while it is read.
std::string doctor_case(bool over) {
  constexpr int kRows = 256;
  static_assert(4LL * kRows * kDoctorT == kMaxPastedNumbers, "the largest doctor case reads exactly the limit");
  std::string s = "{'input_ids': " + printed_tensor(kRows, kDoctorT, doctor_id) + ",\n 'attention_mask': " +
                  printed_tensor(kRows, kDoctorT, [](int b, int t) { return t < doctor_length(b) ? 1 : 0; }) +
                  ",\n 'labels': " +
                  printed_tensor(kRows, kDoctorT, [](int b, int t) { return t < doctor_length(b) ? doctor_id(b, t) : -100; }) +
                  ",\n 'position_ids': " + printed_tensor(kRows, kDoctorT, [](int, int t) { return t; });
  if (over) s += ",\n 'token_type_ids': tensor([[0]])";
  return s + "}";
}

// doctor: one byte over kMaxPastedBytes (a small batch padded with spaces before its closing
// brace, so the text ends in a character), refused before reading.
std::string doctor_bytes_case(bool) {
  std::string s = "{'input_ids': tensor([[1, 2]])";
  s.append(kMaxPastedBytes - s.size(), ' ');
  return s + "}";
}

// train: the longest run the Train page and `masklab train` accept (both runs, the medium model,
// kMaxTrainSteps steps). It streams a line every log_every steps, so what bounds it is the time
// per line and the memory, not the whole run; over: one step more.
std::string train_case(bool over) {
  return "{\"bug\":\"pads_trained\",\"model\":\"medium\",\"steps\":" + std::to_string(kMaxTrainSteps + (over ? 1 : 0)) + "}";
}

// Any command: a request just over the byte bound, refused while it is read.
std::string bytes_case(bool) {
  std::string s = "{\"features\":[{\"input_ids\":[1]}],\"pad_token_id\":0";
  s.append(kMaxRequestBytes, ' ');
  return s + "}";
}

// collate: a small request text with more values than collate accepts (zeros are 2 bytes each).
std::string values_case(bool) {
  const size_t n = max_request_values("collate") + 1;
  std::string s = "{\"features\":[{\"input_ids\":[";
  s.reserve(n * 2 + 64);
  for (size_t i = 0; i < n; ++i) s += i ? ",0" : "0";
  return s + "]}],\"pad_token_id\":0}";
}

struct Case {
  const char* name;
  const char* command;
  bool answered;  // the largest accepted request (true) or one over a limit (false)
  std::string (*make)(bool over);
  const char* about;
};

const Case kCases[] = {
    {"collate-largest", "collate", true, collate_case, "256 rows x 4,096 tokens, labels and both masks"},
    {"collate-over", "collate", false, collate_case, "one token over the batch limit"},
    {"collate-values", "collate", false, values_case, "more values than collate accepts"},
    {"any-bytes", "collate", false, bytes_case, "one byte over the request limit"},
    {"loss-largest", "loss", true, loss_case, "4 x 512 x 1,024 logits"},
    {"loss-over", "loss", false, loss_case, "4 x 512 x 1,025 logits"},
    {"loss-gradient-largest", "loss", true, loss_gradient_case, "4 x 512 x 256 logits with the gradient"},
    {"loss-gradient-over", "loss", false, loss_gradient_case, "4 x 512 x 257 logits with the gradient"},
    {"accumulate-largest", "accumulate", true, accumulate_case, "4 micro-batches of 1 x 512 x 1,024"},
    {"accumulate-over", "accumulate", false, accumulate_case, "one position more"},
    {"attention-largest", "attention", true, attention_case, "T = 512, D = 256"},
    {"attention-over", "attention", false, attention_case, "T = 513"},
    {"inspect-largest", "inspect", true, inspect_case, "16 x 256 distinct ids, V = 4,882"},
    {"inspect-over", "inspect", false, inspect_case, "V = 4,883"},
    {"inspect-text-largest", "inspect", true, inspect_text_case, "16 texts of 4,096 words, truncated to 256"},
    {"inspect-text-over", "inspect", false, inspect_text_case, "one word more"},
    {"chat-largest", "chat", true, chat_case, "262,144 tokens with texts, 1,000 messages, 512-id templates"},
    {"chat-over", "chat", false, chat_case, "262,145 tokens"},
    {"doctor-largest", "doctor", true, doctor_case, "256 x 4,096 printed, 4 fields: 4,194,304 numbers"},
    {"doctor-over", "doctor", false, doctor_case, "one number more"},
    {"doctor-bytes", "doctor", false, doctor_bytes_case, "one byte over the doctor's 32 MiB"},
    {"train-largest", "train", true, train_case, "medium model, 3,000 steps, both runs (streamed)"},
    {"train-over", "train", false, train_case, "3,001 steps"},
};

const Case* find_case(std::string_view name) {
  for (const Case& c : kCases)
    if (name == c.name) return &c;
  return nullptr;
}

std::string request_named(std::string_view name) {
  if (name == "collate") return collate_request();
  if (name == "loss") return loss_request();
  if (name == "doctor") return doctor_text();
  if (name == "doctor-options") return doctor_options();
  if (const Case* c = find_case(name)) return c->make(!c->answered);
  return {};
}

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Runs `cli command file`; returns its exit status, CPU and wall time, peak resident memory and
// first stderr line. stdout goes to /dev/null, except for a command that streams its answer
// (`stream`): then its lines are read as they come, to time the first one and the longest wait.
struct Run {
  int status = -1;
  double cpu_ms = 0, wall_ms = 0, peak_mb = 0;
  double first_line_ms = 0, longest_gap_ms = 0;
  long lines = 0;
  std::string stderr_line;
};

Run run_cli(const char* cli, const char* command, const std::string& file, bool stream) {
  Run run;
  int err_pipe[2], out_pipe[2] = {-1, -1};
  if (pipe(err_pipe) != 0) return run;
  if (stream && pipe(out_pipe) != 0) return run;
  // posix_spawn, not fork: a forked copy of this process (holding the generated requests) would
  // count in the child's peak memory until it execs.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stream) {
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
  } else {
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  }
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
  char* const argv[] = {const_cast<char*>(cli), const_cast<char*>(command), const_cast<char*>(file.c_str()), nullptr};
  const auto t0 = std::chrono::steady_clock::now();
  const auto since = [&t0] { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); };
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, cli, &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(err_pipe[1]);
  if (stream) close(out_pipe[1]);
  if (spawned != 0) {
    close(err_pipe[0]);
    if (stream) close(out_pipe[0]);
    return run;
  }
  std::string err;
  char buf[4096];
  pollfd fds[2] = {{err_pipe[0], POLLIN, 0}, {out_pipe[0], POLLIN, 0}};
  double last_line_ms = 0;
  for (int open_fds = stream ? 2 : 1; open_fds > 0;) {
    if (poll(fds, 2, -1) < 0) break;
    for (pollfd& p : fds) {
      if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(p.fd, buf, sizeof buf);
      if (n <= 0) {
        close(p.fd);
        p.fd = -1;
        --open_fds;
      } else if (p.fd == err_pipe[0]) {
        err.append(buf, static_cast<size_t>(n));
      } else {
        for (ssize_t i = 0; i < n; ++i) {
          if (buf[i] != '\n') continue;
          const double now = since();
          if (run.lines++ == 0) run.first_line_ms = now;
          run.longest_gap_ms = std::max(run.longest_gap_ms, now - last_line_ms);
          last_line_ms = now;
        }
      }
    }
  }
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  run.wall_ms = since();
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
  run.peak_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
  run.stderr_line = err.substr(0, err.find('\n'));
  return run;
}

int limits(const char* cli) {
  std::printf("%-22s %-10s %9s  %-8s %9s %9s %8s  %s\n", "case", "command", "request", "result", "cpu ms",
              "wall ms", "peak MB", "what");
  const std::string file = "/tmp/masklab-bench-" + std::to_string(getpid()) + ".json";
  int unexpected = 0;
  for (const Case& c : kCases) {
    // The request is generated in a forked child, so this process stays small: a spawned
    // process's peak memory starts from its parent's at the moment it execs.
    const pid_t writer = fork();
    if (writer == 0) {
      const std::string request = c.make(!c.answered);
      std::FILE* f = std::fopen(file.c_str(), "wb");
      if (!f) _exit(1);
      std::fwrite(request.data(), 1, request.size(), f);
      _exit(std::fclose(f) == 0 ? 0 : 1);
    }
    int writer_status = 0;
    waitpid(writer, &writer_status, 0);
    struct stat st {};
    if (writer_status != 0 || stat(file.c_str(), &st) != 0) return 1;
    const double request_mb = static_cast<double>(st.st_size) / (1 << 20);
    const bool stream = std::string_view(c.command) == "train";
    const Run run = run_cli(cli, c.command, file, stream);
    const bool answered = run.status == 0;
    if (answered != c.answered) ++unexpected;
    std::printf("%-22s %-10s %7.1fMB  %-8s %9.0f %9.0f %8.0f  %s\n", c.name, c.command,
                request_mb, answered ? "answered" : (run.status == 2 ? "refused" : "FAILED"),
                run.cpu_ms, run.wall_ms, run.peak_mb, c.about);
    if (!answered && !run.stderr_line.empty()) std::printf("%22s   %.150s\n", "", run.stderr_line.c_str());
    if (answered && stream)
      std::printf("%22s   %ld lines streamed: the first after %.0f ms, at most %.0f ms between two\n", "", run.lines,
                  run.first_line_ms, run.longest_gap_ms);
  }
  std::remove(file.c_str());
  if (unexpected) std::printf("bench: %d case(s) did not end as expected\n", unexpected);
  return unexpected ? 1 : 0;
}

// The speed workload as flat buffers: the same ids, lengths, logits and labels as the JSON requests.
int typed(int iterations) {
  static const double kValues[] = {-2, -1.75, -1.5, -1.25, -1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75};
  std::vector<std::int32_t> ids, lengths, labels;
  for (int b = 0; b < kB; ++b) {
    lengths.push_back(row_length(b));
    for (int t = 0; t < row_length(b); ++t) ids.push_back(token_id(b, t));
  }
  std::vector<double> logits;
  logits.reserve(static_cast<size_t>(kB) * kT * kV);
  for (int b = 0; b < kB; ++b)
    for (int t = 0; t < kT; ++t) {
      for (int v = 0; v < kV; ++v) logits.push_back(kValues[(b * 5 + t * 3 + v * 11) % 16]);
      labels.push_back(t < row_length(b) ? token_id(b, t) : -100);
    }
  const std::vector<TensorIn> collate_in = {
      {"input_ids", DType::Int32, {static_cast<int>(ids.size())}, ids.data(), ids.size()},
      {"lengths", DType::Int32, {kB}, lengths.data(), lengths.size()}};
  const std::vector<TensorIn> loss_in = {{"logits", DType::Float64, {kB, kT, kV}, logits.data(), logits.size()},
                                         {"labels", DType::Int32, {kB, kT}, labels.data(), labels.size()}};
  const std::string collate_options = "{\"pad_token_id\":0,\"vocab_size\":64}";
  const std::string loss_options = "{\"shift\":true,\"ignore_index\":-100,\"reduction\":\"mean\"}";
  for (bool warm : {true}) {
    (void)warm;
    if (!run_tensor_command("collate", collate_options, collate_in).answer.ok ||
        !run_tensor_command("loss", loss_options, loss_in).answer.ok) {
      std::fputs("masklab_bench: the typed path refused the workload\n", stderr);
      return 1;
    }
  }
  size_t checksum = 0;
  double collate_ms = 0, loss_ms = 0;
  for (int i = 0; i < iterations; ++i) {
    const double t0 = thread_cpu_ms();
    checksum += run_tensor_command("collate", collate_options, collate_in).tensors.size();
    const double t1 = thread_cpu_ms();
    checksum += run_tensor_command("loss", loss_options, loss_in).tensors.size();
    const double t2 = thread_cpu_ms();
    collate_ms += t1 - t0;
    loss_ms += t2 - t1;
  }
  std::printf("native typed collate+loss B=%d T=%d V=%d: %.3f ms/iter (collate %.3f, loss %.3f; %d iterations, %zu tensors out)\n",
              kB, kT, kV, (collate_ms + loss_ms) / iterations, collate_ms / iterations, loss_ms / iterations, iterations,
              checksum / iterations);
  return 0;
}

int usage() {
  std::fputs("usage: masklab_bench [ITERATIONS] | --typed [ITERATIONS] | --print NAME | --cases | --limits CLI | "
             "--train tiny|small|medium STEPS (--print also doctor|doctor-options)\n",
             stderr);
  return 2;
}

// Times `steps` optimizer steps of one run (after 20 untimed warm-up steps), as the Train page's
// worker runs them: no evaluation, no logging.
int train_bench(std::string_view model, int steps) {
  masklab::TrainSettings settings;
  bool known = false;
  for (size_t i = 0; i < masklab::model_size_names().size(); ++i)
    if (masklab::model_size_names()[i] == model) {
      settings.model = static_cast<masklab::ModelSize>(i);
      known = true;
    }
  if (!known || steps < 1 || steps + 20 > masklab::kMaxTrainSteps) return usage();
  settings.steps = steps + 20;
  masklab::TrainRun run(settings, masklab::RunKind::Fixed);
  for (int i = 0; i < 20; ++i) run.step();
  double checksum = 0;  // keeps the steps observable
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) checksum += run.step().train_loss;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("native train %.*s: %.3f ms/step (%d steps, %zu parameters, loss %.4f)\n", static_cast<int>(model.size()),
              model.data(), ms / steps, steps, run.model().parameters().size(), checksum / steps);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string_view(argv[1]) == "--train") return train_bench(argv[2], std::atoi(argv[3]));
  if (argc == 3 && std::string_view(argv[1]) == "--print") {
    const std::string json = request_named(argv[2]);
    if (json.empty()) return usage();
    std::fwrite(json.data(), 1, json.size(), stdout);
    std::fputc('\n', stdout);
    return 0;
  }
  if (argc == 2 && std::string_view(argv[1]) == "--cases") {
    for (const Case& c : kCases) std::printf("%s %s %s\n", c.name, c.command, c.answered ? "answered" : "refused");
    return 0;
  }
  if (argc == 3 && std::string_view(argv[1]) == "--limits") return limits(argv[2]);
  if (argc >= 2 && std::string_view(argv[1]) == "--typed") return typed(argc == 3 ? std::max(1, std::atoi(argv[2])) : 20);
  if (argc > 2) return usage();
  int iterations = 20;
  if (argc == 2) {
    iterations = std::atoi(argv[1]);
    if (iterations < 1) return usage();
  }

  const std::string collate = collate_request();
  const std::string loss = loss_request();

  // One untimed warm-up round, which also checks that both requests are accepted.
  for (auto [command, json] : {std::pair{"collate", &collate}, std::pair{"loss", &loss}}) {
    const masklab::ApiResult r = masklab::run_command(command, *json);
    if (!r.ok) {
      std::fprintf(stderr, "masklab_bench: %s rejected: %s: %s\n", command, r.field.c_str(), r.message.c_str());
      return 1;
    }
  }

  size_t checksum = 0;  // keeps the calls observable
  double collate_ms = 0, loss_ms = 0;
  for (int i = 0; i < iterations; ++i) {
    const double t0 = thread_cpu_ms();
    checksum += masklab::run_command("collate", collate).json.size();
    const double t1 = thread_cpu_ms();
    checksum += masklab::run_command("loss", loss).json.size();
    const double t2 = thread_cpu_ms();
    collate_ms += t1 - t0;
    loss_ms += t2 - t1;
  }

  std::printf("native collate+loss B=%d T=%d V=%d: %.3f ms/iter (collate %.3f, loss %.3f; %d iterations, %zu bytes out)\n",
              kB, kT, kV, (collate_ms + loss_ms) / iterations, collate_ms / iterations, loss_ms / iterations,
              iterations, checksum / iterations);

  const std::string text = doctor_text(), options = doctor_options();
  const masklab::ApiResult check = masklab::run_doctor(text, options);
  if (!check.ok) {
    std::fprintf(stderr, "masklab_bench: doctor rejected: %s: %s\n", check.field.c_str(), check.message.c_str());
    return 1;
  }
  // Wall clock as for collate + loss, and process CPU time, which a busy machine inflates less.
  double doctor_ms = 0;
  const std::clock_t cpu0 = std::clock();
  for (int i = 0; i < iterations; ++i) {
    const auto t0 = Clock::now();
    checksum += masklab::run_doctor(text, options).json.size();
    doctor_ms += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
  const double doctor_cpu_ms = 1000.0 * static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  std::printf("native doctor B=%d T=%d printed (%zu bytes of text): %.3f ms/iter (cpu %.3f)\n", kDoctorB, kDoctorT,
              text.size(), doctor_ms / iterations, doctor_cpu_ms / iterations);
  return 0;
}
