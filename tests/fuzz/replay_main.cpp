// replay_main.cpp — runs the fuzz targets' checks over files, without libFuzzer: npm test builds
// it with g++ under AddressSanitizer + UndefinedBehaviorSanitizer and replays the seed corpus and
// every saved finding through it (scripts/test.sh).
//
//   masklab_fuzz_replay PATH...   each file, or every file in each directory, is given to every
//                                 run_command command (MASKLAB_FUZZ_COMMANDS) — a collate request
//                                 sent to loss exercises loss's error paths — to the typed
//                                 path's target, the doctor on the file as pasted text, and the
//                                 train settings reader
//
// Exit status 0 when every input was answered as api.hpp promises; a finding aborts (fuzz_fail)
// or is reported by a sanitizer.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.hpp"
#include "train_api.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size);  // fuzz_tensors.cpp

namespace {

std::vector<std::string_view> commands() {
  std::vector<std::string_view> out;
  std::string_view list = MASKLAB_FUZZ_COMMANDS;  // "collate,loss,…" from CMakeLists.txt
  while (!list.empty()) {
    const auto semi = list.find(',');
    out.push_back(list.substr(0, semi));
    list = semi == std::string_view::npos ? std::string_view() : list.substr(semi + 1);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const fs::path p = argv[i];
    if (fs::is_directory(p)) {
      for (const auto& entry : fs::recursive_directory_iterator(p))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.push_back(p);
    }
  }
  const auto names = commands();
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::string_view command : names) masklab::fuzz::run_one(command, data, bytes.size());
    LLVMFuzzerTestOneInput(data, bytes.size());
    masklab::fuzz::run_doctor_text(data, bytes.size());
    try {
      (void)masklab::parse_train_settings(bytes);
    } catch (const masklab::InputError&) {
    }
  }
  std::printf("masklab fuzz replay: %zu inputs x %zu commands + the typed path, doctor text, train settings: no finding\n", files.size(), names.size());
  return 0;
}
