// masklab — the native command-line front end of the core.
//
//   masklab collate|loss|accumulate|attention|inspect|chat [FILE]
//   masklab train [FILE]      JSON settings in; one JSON line per logged step, then a final line
//
// Reads one JSON request from FILE (or stdin when FILE is absent or "-"; at most
// masklab::kMaxRequestBytes of it, and a leading UTF-8 byte order mark is dropped), hands it to
// masklab::run_command — the same entry point the WebAssembly module calls, so both give identical
// answers — and prints the JSON answer plus a newline on stdout (exit 0).
// On any failure it prints exactly ONE line on stderr, `masklab: <field>: <message>`, and exits 2.
//
// This file is only argument handling and I/O. It knows nothing about padding, labels or loss and
// never edits a request or an answer.

#include "api.hpp"
#include "limits.hpp"
#include "train_api.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitError = 2;  // bad request, bad arguments, unreadable input: all the caller's to fix

constexpr std::string_view kCommands[] = {"collate", "loss", "accumulate", "attention", "inspect", "chat", "train"};

constexpr const char* kUsageLine =
    "usage: masklab collate|loss|accumulate|attention|inspect|chat [FILE]";

constexpr const char* kHelp =
    "usage: masklab collate|loss|accumulate|attention|inspect|chat [FILE]\n"
    "       masklab train [FILE]\n"
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
    "\n"
    "FILE is a JSON request; without FILE, or with '-', the request is read from stdin.\n"
    "The request and answer fields are listed in README.md; the rule behind each one, with its\n"
    "library version and source, in docs/semantics.md.\n"
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

int run(int argc, char** argv) {
  if (argc < 2) return fail("command", std::string("missing command; ") + kUsageLine);

  const std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kHelp, stdout);
    return std::fflush(stdout) == 0 ? kExitOk : kExitError;
  }
  if (!is_command(command))
    return fail("command", "unknown command '" + std::string(command) + "'; " + kUsageLine);
  if (argc > 3)
    return fail("arguments", std::string("expected at most one FILE; ") + kUsageLine);

  const bool from_stdin = argc < 3 || std::string_view(argv[2]) == "-";
  const std::string source = from_stdin ? "stdin" : argv[2];

  std::string request;
  int read_errno = 0;
  bool read_ok = false;
  if (from_stdin) {
    read_ok = read_bounded(stdin, request, read_errno);
  } else {
    std::FILE* file = std::fopen(argv[2], "rb");
    if (file == nullptr)
      return fail(source, std::string("cannot open file: ") + std::strerror(errno));
    read_ok = read_bounded(file, request, read_errno);
    std::fclose(file);
  }
  if (!read_ok)
    return fail(source, std::string("cannot read: ") + std::strerror(read_errno));
  if (request.size() > masklab::kMaxRequestBytes)
    return fail(source, "is more than " + masklab::grouped(masklab::kMaxRequestBytes) +
                            " bytes; at most that many are accepted (the request is too large)");
  // Editors on Windows start UTF-8 files with a byte order mark; it is not part of the JSON.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (std::string_view(request).substr(0, kBom.size()) == kBom) request.erase(0, kBom.size());

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

  const std::string out = result.json + "\n";
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0)
    return fail("stdout", std::string("cannot write the answer: ") + std::strerror(errno));
  return kExitOk;
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
