// masklab_bench — times the native core on one fixed, generated workload.
//
//   masklab_bench [ITERATIONS]          prints ms per iteration of collate + loss, then of doctor
//   masklab_bench --print collate|loss  prints that request's JSON (so the wasm side of
//                                        scripts/bench/bench.mjs runs on the very same bytes)
//   masklab_bench --print doctor|doctor-options  the doctor's printed batch, and its options JSON
//   masklab_bench --train MODEL STEPS   prints ms per training step of the Train page's run
//                                        (default settings, fixed collator; scripts/bench/train.mjs)
//
// Workload: B=8 rows, T=512 (longest row), V=64. Row b has 512 - 48*b tokens (512, 464, ..., 176)
// so padding is real; token ids and logits are simple integer formulas, identical every run.
// doctor: a 64 × 4096 batch printed in full (torch.set_printoptions(profile='full')) as PyTorch
// prints it — input_ids, attention_mask, labels, about 5 MB of text — with Llama 3 ids, rows of
// 4096 - 48·b tokens padded with 128004, and labels copied from input_ids (so the pads are
// trained and every figure, the bigram's refit included, is computed).
// Timing goes through masklab::run_command, i.e. JSON parsing and writing are included, exactly
// as the CLI and the browser pay for them. A figure printer, not a test: nothing is asserted.

#include "api.hpp"
#include "training.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
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

int doctor_length(int b) { return kDoctorT - 48 * b; }
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

int usage() {
  std::fputs("usage: masklab_bench [ITERATIONS] | masklab_bench --print collate|loss|doctor|doctor-options | "
             "masklab_bench --train tiny|small|medium STEPS\n",
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
    if (which != "collate" && which != "loss" && which != "doctor" && which != "doctor-options") return usage();
    const std::string json = which == "collate"  ? collate_request()
                             : which == "loss"   ? loss_request()
                             : which == "doctor" ? doctor_text()
                                                 : doctor_options();
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
