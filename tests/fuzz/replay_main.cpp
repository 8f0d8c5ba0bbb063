// main() for the fuzz targets built without libFuzzer (tests/fuzz/CMakeLists.txt):
// runs each file named on the command line, and each regular file below each
// directory named, through LLVMFuzzerTestOneInput once, in name order. A
// target's own check (abort, sanitizer report, uncaught exception) fails the
// run; so ctest replays the seed and regression corpora in every build.
//
// usage: fuzz_<name> PATH...   (prints how many inputs ran; exit 1 if a path is missing)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void run_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A copy of exactly the file's size, so ASan sees a read past the end.
  std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
  LLVMFuzzerTestOneInput(data.data(), data.size());
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::size_t runs = 0;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    std::vector<fs::path> files;
    if (fs::is_directory(argv[i], ec)) {
      for (const auto& e : fs::recursive_directory_iterator(argv[i], ec))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
    } else if (fs::is_regular_file(argv[i], ec)) {
      files.push_back(argv[i]);
    } else {
      std::fprintf(stderr, "%s: no such file or directory: %s\n", argv[0], argv[i]);
      return 1;
    }
    for (const auto& f : files) {
      run_file(f);
      ++runs;
    }
  }
  std::printf("%s: %zu inputs ran\n", argv[0], runs);
  return 0;
}
