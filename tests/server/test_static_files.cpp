// The static file handler behind /play/ and /admin/ (net/static_files.hpp):
// MIME types, index.html, redirects, ETags, 404s, and every path traversal
// refused (raw and %-encoded "..", hidden files, backslashes, NULs, symlinks
// leading outside the root).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "net/static_files.hpp"

using cod::server::static_files;
namespace fs = std::filesystem;

namespace {

struct web_tree {
  fs::path base;  // base/secret.txt outside the root, base/web the root
  fs::path root;
  web_tree() {
    std::random_device rd;
    base = fs::temp_directory_path() / ("cod-static-" + std::to_string(rd()));
    root = base / "web";
    fs::create_directories(root / "play" / "js");
    fs::create_directories(root / "admin");
    write(base / "secret.txt", "SECRET");
    write(base / "web" / "top.txt", "top of the root, outside play/ and admin/");
    write(root / "play" / "index.html", "<!doctype html><title>play</title>");
    write(root / "play" / "js" / "app.js", "export const x = 1;\n");
    write(root / "play" / "style.css", "body{}\n");
    write(root / "play" / "icon.svg", "<svg/>");
    write(root / "play" / "data.json", "{}");
    write(root / "play" / "blob.bin", "xx");
    write(root / "play" / ".hidden", "hidden");
    write(root / "admin" / "index.html", "<!doctype html><title>admin</title>");
    std::error_code ec;
    fs::create_symlink(base / "secret.txt", root / "play" / "link.txt", ec);
    fs::create_directory_symlink(base, root / "play" / "outside", ec);
  }
  ~web_tree() {
    std::error_code ec;
    fs::remove_all(base, ec);
  }
  static void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
};

}  // namespace

TEST_CASE("static files: MIME types by extension") {
  CHECK(static_files::mime_type("index.html") == "text/html; charset=utf-8");
  CHECK(static_files::mime_type("a/b/app.js") == "text/javascript; charset=utf-8");
  CHECK(static_files::mime_type("x.mjs") == "text/javascript; charset=utf-8");
  CHECK(static_files::mime_type("style.css") == "text/css; charset=utf-8");
  CHECK(static_files::mime_type("catalogue.json") == "application/json");
  CHECK(static_files::mime_type("icon.svg") == "image/svg+xml");
  CHECK(static_files::mime_type("shot.PNG") == "image/png");
  CHECK(static_files::mime_type("font.woff2") == "font/woff2");
  CHECK(static_files::mime_type("blob.bin") == "application/octet-stream");
  CHECK(static_files::mime_type("no_extension") == "application/octet-stream");
  CHECK(static_files::mime_type("dir.js/file") == "application/octet-stream");
}

TEST_CASE("static files: which targets are ours (not the admin API)") {
  CHECK(static_files::claims("/play"));
  CHECK(static_files::claims("/play/"));
  CHECK(static_files::claims("/play/js/app.js"));
  CHECK(static_files::claims("/admin"));
  CHECK(static_files::claims("/admin/"));
  CHECK(static_files::claims("/admin/admin.js"));
  CHECK_FALSE(static_files::claims("/admin/api"));
  CHECK_FALSE(static_files::claims("/admin/api/matches"));
  CHECK_FALSE(static_files::claims("/player"));
  CHECK_FALSE(static_files::claims("/administrator"));
  CHECK_FALSE(static_files::claims("/healthz"));
  CHECK_FALSE(static_files::claims("/"));
  CHECK_FALSE(static_files::claims("/ws"));
}

TEST_CASE("static files: percent-decoding") {
  CHECK(static_files::percent_decode("/play/a%20b.js") == std::optional<std::string>("/play/a b.js"));
  CHECK(static_files::percent_decode("/play/%2e%2E/x") == std::optional<std::string>("/play/../x"));
  CHECK_FALSE(static_files::percent_decode("/play/%zz").has_value());
  CHECK_FALSE(static_files::percent_decode("/play/%2").has_value());
  CHECK_FALSE(static_files::percent_decode("/play/%").has_value());
  CHECK_FALSE(static_files::percent_decode("/play/a%00.js").has_value());
}

TEST_CASE("static files: files, index.html, redirects, MIME and caching headers") {
  web_tree t;
  static_files files(t.root.string());

  auto r = files.serve("/play/js/app.js");
  CHECK(r.status == 200);
  CHECK(r.body == "export const x = 1;\n");
  CHECK(r.content_type == "text/javascript; charset=utf-8");
  CHECK(r.cache_control == "no-cache");
  CHECK(r.etag.size() > 2);
  CHECK(r.etag.front() == '"');

  r = files.serve("/play/");
  CHECK(r.status == 200);
  CHECK(r.content_type == "text/html; charset=utf-8");
  CHECK(r.body.find("<title>play</title>") != std::string::npos);

  r = files.serve("/admin/");
  CHECK(r.status == 200);
  CHECK(r.body.find("<title>admin</title>") != std::string::npos);

  CHECK(files.serve("/play/style.css").content_type == "text/css; charset=utf-8");
  CHECK(files.serve("/play/icon.svg").content_type == "image/svg+xml");
  CHECK(files.serve("/play/data.json").content_type == "application/json");
  CHECK(files.serve("/play/blob.bin").content_type == "application/octet-stream");

  r = files.serve("/play");
  CHECK(r.status == 301);
  CHECK(r.location == "/play/");
  r = files.serve("/admin");
  CHECK(r.status == 301);
  CHECK(r.location == "/admin/");
  r = files.serve("/play/js");
  CHECK(r.status == 301);
  CHECK(r.location == "/play/js/");
  CHECK(files.serve("/play/js/").status == 404);  // no index.html there

  // A %-encoded name is decoded.
  CHECK(files.serve("/play/js/%61pp.js").status == 200);

  // Revalidation: the same ETag gives 304 without a body; another gives 200.
  const auto etag = files.serve("/play/js/app.js").etag;
  r = files.serve("/play/js/app.js", etag);
  CHECK(r.status == 304);
  CHECK(r.body.empty());
  CHECK(r.etag == etag);
  CHECK(files.serve("/play/js/app.js", "\"other\", W/" + etag).status == 304);
  CHECK(files.serve("/play/js/app.js", "\"other\"").status == 200);
}

TEST_CASE("static files: missing files and a missing root are 404") {
  web_tree t;
  static_files files(t.root.string());
  auto r = files.serve("/play/nope.js");
  CHECK(r.status == 404);
  CHECK(r.content_type == "text/plain; charset=utf-8");
  CHECK(files.serve("/admin/nope.html").status == 404);
  CHECK(files.serve("/admin/api/matches").status == 404);  // not ours

  static_files none("");
  CHECK(none.serve("/play/").status == 404);
  static_files missing((t.base / "no-such-dir").string());
  CHECK(missing.serve("/play/").status == 404);
  CHECK(missing.serve("/play/js/app.js").status == 404);
}

TEST_CASE("static files: path traversal is refused") {
  web_tree t;
  static_files files(t.root.string());
  // The file exists, one or two levels up: every spelling of ".." is a 404.
  for (const char* target : {
           "/play/../top.txt",
           "/play/../../secret.txt",
           "/play/js/../../../secret.txt",
           "/play/%2e%2e/top.txt",
           "/play/%2E%2E/%2e%2e/secret.txt",
           "/play/.%2e/top.txt",
           "/play/..%2ftop.txt",
           "/play/..%2F..%2Fsecret.txt",
           "/play/..%5ctop.txt",
           "/play/..\\top.txt",
           "/play/./js/app.js",
           "/play//js/app.js",
           "/play/%2fetc%2fpasswd",
           "/play/js/app.js%00.html",
           "/play/.hidden",
           "/play/%2ehidden",
           "/admin/../play/js/app.js",
           "/admin/%2e%2e/%2e%2e/secret.txt",
       }) {
    CAPTURE(target);
    const auto r = files.serve(target);
    CHECK(r.status == 404);
    CHECK(r.body.find("SECRET") == std::string::npos);
  }
  // Symlinks that lead outside the root are refused too.
  if (fs::is_symlink(t.root / "play" / "link.txt")) {
    CHECK(files.serve("/play/link.txt").status == 404);
    CHECK(files.serve("/play/outside/secret.txt").status == 404);
  }
}

TEST_CASE("static files: a published file at its own URL (the catalogue)") {
  web_tree t;
  static_files files(t.root.string());
  files.add_file("/play/catalogue.json", (t.base / "secret.txt").string());
  auto r = files.serve("/play/catalogue.json");
  CHECK(r.status == 200);
  CHECK(r.body == "SECRET");
  CHECK(r.content_type == "text/plain; charset=utf-8");  // by the file's own name
  CHECK(files.serve("/play/catalogue.json", r.etag).status == 304);
  // Only the exact URL.
  CHECK(files.serve("/play/catalogue.json/").status == 404);
}
