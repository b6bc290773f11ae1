// masklab_bench — times the native core on one fixed, generated workload.
//
//   masklab_bench [ITERATIONS]          prints ms per iteration of collate + loss
//   masklab_bench --print collate|loss  prints that request's JSON (so the wasm side of
//                                        scripts/bench/bench.mjs runs on the very same bytes)
//   masklab_bench --train MODEL STEPS   prints ms per training step of the Train page's run
//                                        (default settings, fixed collator; scripts/bench/train.mjs)
//
// Workload: B=8 rows, T=512 (longest row), V=64. Row b has 512 - 48*b tokens (512, 464, ..., 176)
// so padding is real; token ids and logits are simple integer formulas, identical every run.
// Timing goes through masklab::run_command, i.e. JSON parsing and writing are included, exactly
// as the CLI and the browser pay for them. A figure printer, not a test: nothing is asserted.

#include "api.hpp"
#include "training.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

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

int usage() {
  std::fputs("usage: masklab_bench [ITERATIONS] | masklab_bench --print collate|loss | masklab_bench --train tiny|small|medium STEPS\n",
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
    const std::string_view which = argv[2];
    if (which != "collate" && which != "loss") return usage();
    const std::string json = which == "collate" ? collate_request() : loss_request();
    std::fwrite(json.data(), 1, json.size(), stdout);
    std::fputc('\n', stdout);
    return 0;
  }
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
      std::fprintf(stderr, "masklab_bench: %s rejected: %s: %s\n", command, r.field.c_str(),
                   r.message.c_str());
      return 1;
    }
  }

  using Clock = std::chrono::steady_clock;
  size_t checksum = 0;  // keeps the calls observable
  double collate_ms = 0, loss_ms = 0;
  for (int i = 0; i < iterations; ++i) {
    const auto t0 = Clock::now();
    checksum += masklab::run_command("collate", collate).json.size();
    const auto t1 = Clock::now();
    checksum += masklab::run_command("loss", loss).json.size();
    const auto t2 = Clock::now();
    collate_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
    loss_ms += std::chrono::duration<double, std::milli>(t2 - t1).count();
  }

  std::printf("native collate+loss B=%d T=%d V=%d: %.3f ms/iter (collate %.3f, loss %.3f; %d iterations, %zu bytes out)\n",
              kB, kT, kV, (collate_ms + loss_ms) / iterations, collate_ms / iterations, loss_ms / iterations,
              iterations, checksum / iterations);
  return 0;
}
