// Fuzz target: static file serving (net/static_files.hpp), what answers any
// GET under /play and /admin. The web root is a temporary directory made once
// per process: play/ and admin/ with a few files, beside it a secret file,
// and inside it what must never be served: a symlink to the secret, a hidden
// file holding it. Input: the request path (still %-encoded) on the first
// line, the If-None-Match header after it. Checks: serve() never throws or
// crashes; it answers only 200, 301, 304 or 404; nothing it sends contains
// the secret (no path traversal, no symlink out of the root, no hidden file).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "fuzz_common.hpp"
#include "net/static_files.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::string_view secret = "SECRET-OUTSIDE-THE-WEB-ROOT";

void write(const fs::path& p, std::string_view text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// base/secret.txt, base/web/{play,admin}/...: removed when the process ends.
struct web_root {
  fs::path base;
  cod::server::static_files files{""};
  web_root() {
    std::string tmpl = (fs::temp_directory_path() / "cod-fuzz-web-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) cod::fuzz::fail("mkdtemp failed");
    base = tmpl;
    const fs::path web = base / "web";
    write(base / "secret.txt", secret);
    write(web / "play" / "index.html", "<!doctype html><title>play</title>");
    write(web / "play" / "js" / "app.js", "export const app = 1;");
    write(web / "play" / "style.css", "body { margin: 0 }");
    write(web / "admin" / "index.html", "<!doctype html><title>admin</title>");
    write(web / "play" / ".hidden", secret);
    fs::create_symlink(base / "secret.txt", web / "play" / "link.txt");
    fs::create_directory_symlink(base, web / "admin" / "up");
    files = cod::server::static_files(web.string());
    files.add_file("/play/catalogue.json", COD_CATALOGUE_PATH);
  }
  ~web_root() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const web_root root;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const std::size_t eol = in.find('\n');
  const std::string_view path = in.substr(0, eol);
  const std::string_view if_none_match = eol == std::string_view::npos ? std::string_view() : in.substr(eol + 1);
  // The first byte's low bit: whether the client accepts gzip.
  const bool gzip = size > 0 && (data[0] & 1) != 0;
  const auto r = root.files.serve(path, if_none_match, gzip);
  cod::fuzz::check(r.status == 200 || r.status == 301 || r.status == 304 || r.status == 404, "an unexpected status");
  cod::fuzz::check(r.body.find(secret) == std::string::npos, "served a file it must not");
  cod::fuzz::check(r.content_encoding.empty() || (gzip && r.status == 200), "compressed for a client that did not ask");
  if (r.status == 301) cod::fuzz::check(!r.location.empty(), "a redirect without a location");
  return 0;
}
