// masklab — the native command-line front end of the core.
//
//   masklab collate|loss|accumulate|attention|inspect|chat [FILE]
//   masklab train [FILE]      JSON settings in; one JSON line per logged step, then a final line
//   masklab doctor [FILE] [--pad-token-id N] [--eos-token-id N] [--end-of-turn-id N] [--encoder]
//                  [--prompt-completion]
//
// Reads one JSON request from FILE (or stdin when FILE is absent or "-"; at most
// masklab::kMaxRequestBytes of it, and a leading UTF-8 byte order mark is dropped), hands it to
// masklab::run_command — the same entry point the WebAssembly module calls, so both give identical
// answers — and prints the JSON answer plus a newline on stdout (exit 0).
// On any failure it prints exactly ONE line on stderr, `masklab: <field>: <message>`, and exits 2.
// `doctor` reads pasted text rather than JSON: the text goes to masklab::run_doctor unchanged and
// the flags become its options; a text it cannot read is reported as `masklab: <FILE>: line L,
// column C: …`.
// Whatever the doctor finds, it exits 0.
//
// This file is only argument handling and I/O. It knows nothing about padding, labels or loss and
// never edits a request or an answer.

#include "api.hpp"
#include "limits.hpp"
#include "json.hpp"
#include "train_api.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <utility>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitError = 2;  // bad request, bad arguments, unreadable input: all the caller's to fix

constexpr std::string_view kCommands[] = {"collate", "loss", "accumulate", "attention", "inspect", "chat", "train", "doctor"};

constexpr const char* kUsageLine =
    "usage: masklab collate|loss|accumulate|attention|inspect|chat|train [FILE] | masklab doctor [FILE] [flags]";

constexpr const char* kDoctorUsage =
    "usage: masklab doctor [FILE] [--pad-token-id N] [--eos-token-id N] [--end-of-turn-id N] [--encoder] "
    "[--prompt-completion]";

constexpr const char* kHelp =
    "usage: masklab collate|loss|accumulate|attention|inspect|chat [FILE]\n"
    "       masklab train [FILE]\n"
    "       masklab doctor [FILE] [flags]\n"
    "\n"
    "Runs one masklab core command on a JSON request and prints the JSON answer.\n"
    "\n"
    "commands:\n"
    "  collate     pad a batch of features; build attention_mask, labels, position_ids\n"
    "  loss        cross-entropy over logits [B][T][V] and labels [B][T] (shift, ignore_index)\n"
    "  accumulate  compare per-micro-batch means with the global token mean\n"
    "  attention   masked scaled dot-product attention over q, k, v [B][T][D]\n"
    "  inspect     collate + tiny bigram model + loss + attention in one call\n"
    "  chat        labels, reasons, per-turn counts and warnings for one rendered conversation\n"
    "              (token ids + role spans; npm run chat-masks renders and tokenizes for you)\n"
    "  train       train a tiny transformer twice, buggy collator vs fixed; prints JSON lines\n"
    "              {\"step\",\"run\",\"train_loss\",\"real_loss\",\"eval_loss\"}, then {\"final\":…}\n"
    "  doctor      diagnose a batch as print(batch) printed it (or JSON / JSONL)\n"
    "\n"
    "FILE is a JSON request; without FILE, or with '-', the request is read from stdin.\n"
    "The request and answer fields are listed in README.md; the rule behind each one, with its\n"
    "library version and source, in docs/semantics.md.\n"
    "\n"
    "masklab doctor [FILE] [--pad-token-id N] [--eos-token-id N] [--end-of-turn-id N]\n"
    "               [--encoder] [--prompt-completion]\n"
    "  reads the pasted batch from FILE or stdin and prints one JSON object:\n"
    "  {\"findings\": [...], \"checks_run\": [...], \"checks_skipped\": [...], \"figures\": {...}};\n"
    "  exit 0 whatever it finds, 2 on text it cannot read (one line naming line and column).\n"
    "\n"
    "exit status: 0 answer printed on stdout; 2 error, one line on stderr:\n"
    "  masklab: <field>: <message>\n"
    "\n"
    "example:\n"
    "  echo '{\"features\":[{\"input_ids\":[5,6,7]},{\"input_ids\":[8]}],\"pad_token_id\":0}' \\\n"
    "    | masklab collate\n";

// Keeps the one-line promise on stderr: messages from the core or the OS never add line breaks.
std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

int fail(std::string_view field, std::string_view message) {
  const std::string line =
      "masklab: " + one_line(field.empty() ? "request" : field) + ": " + one_line(message) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  return kExitError;
}

bool is_command(std::string_view name) {
  for (std::string_view c : kCommands)
    if (c == name) return true;
  return false;
}

// Reads a whole stream, but never more than kMaxRequestBytes + 1 bytes: one byte over the bound
// is enough to refuse, and `masklab collate </dev/zero` must end at once instead of growing
// until memory runs out. Returns false (with errno_out set) on a read error.
bool read_bounded(std::FILE* in, std::string& out, int& errno_out) {
  const size_t cap = masklab::kMaxRequestBytes + 1;
  // Room for the whole text at once, so the string never doubles past what was read: a file's
  // size, or the bound for a pipe (reserved address space costs no memory until it is written).
  struct stat st {};
  const bool regular = fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode);
  out.reserve(regular ? std::min(cap, static_cast<size_t>(st.st_size) + 1) : cap);
  char buffer[1 << 16];
  while (out.size() < cap) {
    const size_t want = std::min(sizeof buffer, cap - out.size());
    const size_t n = std::fread(buffer, 1, want, in);
    out.append(buffer, n);
    if (n < want) break;
  }
  if (std::ferror(in)) {
    errno_out = errno;
    return false;
  }
  return true;
}

// Reads FILE (or stdin for nullptr / "-") into `text`; on failure returns the exit code of the
// one-line error it printed, else -1.
int read_input(const char* path, std::string& text, std::string& source) {
  const bool from_stdin = path == nullptr || std::string_view(path) == "-";
  source = from_stdin ? "stdin" : path;
  int read_errno = 0;
  bool read_ok = false;
  if (from_stdin) {
    read_ok = read_bounded(stdin, text, read_errno);
  } else {
    std::FILE* file = std::fopen(path, "rb");
    if (file == nullptr) return fail(source, std::string("cannot open file: ") + std::strerror(errno));
    read_ok = read_bounded(file, text, read_errno);
    std::fclose(file);
  }
  if (!read_ok) return fail(source, std::string("cannot read: ") + std::strerror(read_errno));
  if (text.size() > masklab::kMaxRequestBytes)
    return fail(source, "is more than " + masklab::grouped(masklab::kMaxRequestBytes) +
                            " bytes; at most that many are accepted (the request is too large)");
  // Editors on Windows start UTF-8 files with a byte order mark; it is not part of the JSON.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (std::string_view(text).substr(0, kBom.size()) == kBom) text.erase(0, kBom.size());
  return -1;
}

int print_answer(const std::string& json) {
  const std::string out = json + "\n";
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0)
    return fail("stdout", std::string("cannot write the answer: ") + std::strerror(errno));
  return kExitOk;
}

// A whole-number flag value, e.g. "128009" or "-1".
bool parse_int(std::string_view text, int& out) {
  if (text.empty() || text.size() > 11) return false;
  long long v = 0;
  size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    v = v * 10 + (text[i] - '0');
  }
  if (text[0] == '-') v = -v;
  if (v < -2147483648LL || v > 2147483647LL) return false;
  out = static_cast<int>(v);
  return true;
}

// masklab doctor [FILE] [flags]: the flags become the doctor's options; the text goes over as it is.
int run_doctor(int argc, char** argv) {
  masklab::Json request = masklab::Json::object();
  const char* path = nullptr;
  constexpr std::pair<std::string_view, const char*> kIdFlags[] = {
      {"--pad-token-id", "pad_token_id"}, {"--eos-token-id", "eos_token_id"}, {"--end-of-turn-id", "end_of_turn_id"}};
  for (int i = 2; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--encoder") {
      request.set("encoder", masklab::Json::boolean(true));
      continue;
    }
    if (arg == "--prompt-completion") {
      request.set("prompt_completion", masklab::Json::boolean(true));
      continue;
    }
    bool matched = false;
    for (auto [flag, field] : kIdFlags) {
      std::string_view value;
      if (arg == flag) {
        if (i + 1 >= argc) return fail(flag, "needs a token id after it; " + std::string(kDoctorUsage));
        value = argv[++i];
      } else if (arg.substr(0, flag.size()) == flag && arg.size() > flag.size() && arg[flag.size()] == '=') {
        value = arg.substr(flag.size() + 1);
      } else {
        continue;
      }
      int id = 0;
      if (!parse_int(value, id)) return fail(flag, "expected a whole number, got '" + std::string(value) + "'");
      if (id < 0) return fail(flag, "is " + std::string(value) + "; token ids must be >= 0");
      request.set(field, masklab::Json::number(id));
      matched = true;
      break;
    }
    if (matched) continue;
    if (arg.size() > 1 && arg[0] == '-')
      return fail("arguments", "unknown option '" + std::string(arg) + "'; " + kDoctorUsage);
    if (path != nullptr) return fail("arguments", std::string("expected at most one FILE; ") + kDoctorUsage);
    path = argv[i];
  }
  std::string text, source;
  if (const int code = read_input(path, text, source); code >= 0) return code;
  const masklab::ApiResult result = masklab::run_doctor(text, masklab::to_json(request));
  // The text's own errors name a line and column of FILE: say which file.
  if (!result.ok) return fail(result.field == "text" ? source : result.field, result.message);
  return print_answer(result.json);
}

int run(int argc, char** argv) {
  if (argc < 2) return fail("command", std::string("missing command; ") + kUsageLine);

  const std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kHelp, stdout);
    return std::fflush(stdout) == 0 ? kExitOk : kExitError;
  }
  if (!is_command(command))
    return fail("command", "unknown command '" + std::string(command) + "'; " + kUsageLine);
  if (command == "doctor") return run_doctor(argc, argv);
  if (argc > 3)
    return fail("arguments", std::string("expected at most one FILE; ") + kUsageLine);
  // `masklab train --help` asks for help, not for a file named --help.
  if (argc == 3 && (std::string_view(argv[2]) == "--help" || std::string_view(argv[2]) == "-h")) {
    std::fputs(kHelp, stdout);
    return std::fflush(stdout) == 0 ? kExitOk : kExitError;
  }

  std::string request, source;
  if (const int code = read_input(argc < 3 ? nullptr : argv[2], request, source); code >= 0) return code;

  if (command == "train") {
    // Lines are flushed one by one, so a pipe (| jq, | head) sees progress as it happens.
    bool written = true;
    const masklab::ApiResult result = masklab::run_train_command(request, [&](std::string_view line) {
      written = written && std::fwrite(line.data(), 1, line.size(), stdout) == line.size() &&
                std::fputc('\n', stdout) != EOF && std::fflush(stdout) == 0;
    });
    if (!result.ok) return fail(result.field, result.message);
    if (!written) return fail("stdout", std::string("cannot write the answer: ") + std::strerror(errno));
    return kExitOk;
  }

  const masklab::ApiResult result = masklab::run_command(command, request);
  if (!result.ok) return fail(result.field, result.message);
  return print_answer(result.json);
}

}  // namespace

int main(int argc, char** argv) {
  // The core reports bad input as data; anything thrown past it (e.g. out of memory) still ends
  // as one stderr line and exit 2, never as an abort.
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    return fail("internal", e.what());
  } catch (...) {
    return fail("internal", "unexpected failure");
  }
}
