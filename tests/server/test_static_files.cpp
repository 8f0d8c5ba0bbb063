// The static file handler behind /play/ and /admin/ (net/static_files.hpp):
// MIME types, index.html, redirects, ETags, 404s, and every path traversal
// refused (raw and %-encoded "..", hidden files, backslashes, NULs, symlinks
// leading outside the root).
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <boost/beast/zlib/inflate_stream.hpp>
#include <boost/crc.hpp>

#include "net/gzip.hpp"
#include "net/static_files.hpp"

using cod::server::accepts_gzip;
using cod::server::gzip_compress;
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

// Decodes one gzip member as RFC 1952 reads it: the header (no optional
// fields: ours sets none), raw deflate, then CRC-32 and ISIZE, both checked.
std::string gunzip(const std::string& gz) {
  namespace zlib = boost::beast::zlib;
  REQUIRE(gz.size() >= 18);
  REQUIRE(static_cast<unsigned char>(gz[0]) == 0x1f);
  REQUIRE(static_cast<unsigned char>(gz[1]) == 0x8b);
  REQUIRE(gz[2] == 8);  // deflate
  REQUIRE(gz[3] == 0);  // no FTEXT, FHCRC, FEXTRA, FNAME, FCOMMENT
  zlib::inflate_stream is;
  std::string out(1 << 20, '\0');
  zlib::z_params zs;
  zs.next_in = gz.data() + 10;
  zs.avail_in = gz.size() - 10 - 8;
  zs.next_out = out.data();
  zs.avail_out = out.size();
  boost::system::error_code ec;
  is.write(zs, zlib::Flush::finish, ec);
  CHECK(ec == zlib::error::end_of_stream);
  CHECK(zs.avail_in == 0);
  out.resize(out.size() - zs.avail_out);
  auto le32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(gz[at + static_cast<std::size_t>(i)]);
    return v;
  };
  boost::crc_32_type crc;
  crc.process_bytes(out.data(), out.size());
  CHECK(le32(gz.size() - 8) == crc.checksum());
  CHECK(le32(gz.size() - 4) == out.size());
  return out;
}

}  // namespace

TEST_CASE("gzip: a member any gzip reader decodes, smaller for text; empty input too") {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "{\"id\":" + std::to_string(i) + ",\"name\":\"Fire Imp\",\"mana\":2},";
  const std::string gz = gzip_compress(text);
  CHECK(gz.size() * 5 < text.size());
  CHECK(gunzip(gz) == text);
  CHECK(gunzip(gzip_compress("")) == "");
  // Incompressible bytes still round-trip (a little larger).
  std::mt19937 rng(7);
  std::string noise(5000, '\0');
  for (auto& c : noise) c = static_cast<char>(rng());
  CHECK(gunzip(gzip_compress(noise, 1)) == noise);
}

TEST_CASE("gzip: Accept-Encoding") {
  CHECK(accepts_gzip("gzip"));
  CHECK(accepts_gzip("gzip, deflate, br"));
  CHECK(accepts_gzip("br;q=1.0, GZip;q=0.5"));
  CHECK(accepts_gzip("*"));
  CHECK(accepts_gzip("identity, x-gzip"));
  CHECK_FALSE(accepts_gzip(""));
  CHECK_FALSE(accepts_gzip("identity"));
  CHECK_FALSE(accepts_gzip("deflate, br"));
  CHECK_FALSE(accepts_gzip("gzip;q=0"));
  CHECK_FALSE(accepts_gzip("gzip;q=0.000"));
  CHECK_FALSE(accepts_gzip("gzip;q=0, *"));  // an explicit refusal beats "*"
  CHECK_FALSE(accepts_gzip("*;q=0"));
  CHECK_FALSE(accepts_gzip("gzip;q=2"));     // malformed q-values do not turn it on
  CHECK_FALSE(accepts_gzip("gzip;q=abc"));
  CHECK_FALSE(accepts_gzip("gzipped"));
}

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

TEST_CASE("static files: published content (the compact catalogue): its own ETag, gzip made once, 304") {
  web_tree t;
  static_files files(t.root.string());
  std::string body = "[";
  for (int i = 0; i < 300; ++i) body += "{\"id\": \"card_" + std::to_string(i) + "\", \"text\": \"a creature\"},\n";
  body += "{}]";
  files.add_content("/play/catalogue.json", body);
  const auto plain = files.serve("/play/catalogue.json");
  CHECK(plain.status == 200);
  CHECK(plain.body == body);
  CHECK(plain.content_type == "application/json");
  CHECK(plain.vary_accept_encoding);
  CHECK(plain.content_encoding.empty());
  CHECK(files.serve("/play/catalogue.json", plain.etag).status == 304);
  const auto gz = files.serve("/play/catalogue.json", {}, true);
  CHECK(gz.status == 200);
  CHECK(gz.content_encoding == "gzip");
  CHECK(gz.etag != plain.etag);
  CHECK(gunzip(gz.body) == body);
  CHECK(files.serve("/play/catalogue.json", gz.etag, true).status == 304);
  CHECK(files.serve("/play/catalogue.json", gz.etag, false).status == 200);  // the other version
  // Another body is another version.
  files.add_content("/play/catalogue.json", body + " ");
  CHECK(files.serve("/play/catalogue.json", plain.etag).status == 200);
  // Only the exact URL; content wins over a file published at the same URL.
  CHECK(files.serve("/play/catalogue.json/").status == 404);
  files.add_file("/play/catalogue.json", (t.base / "secret.txt").string());
  CHECK(files.serve("/play/catalogue.json").body != "SECRET");
}

TEST_CASE("static files: text files of 1 KiB or more go gzip-compressed to a client that accepts it") {
  web_tree t;
  std::string script;
  for (int i = 0; i < 300; ++i) script += "export const card_" + std::to_string(i) + " = 'a creature';\n";
  web_tree::write(t.root / "play" / "js" / "big.js", script);
  std::string png(4000, 'p');
  web_tree::write(t.root / "play" / "big.png", png);
  static_files files(t.root.string());

  const auto plain = files.serve("/play/js/big.js");
  CHECK(plain.status == 200);
  CHECK(plain.body == script);
  CHECK(plain.content_encoding.empty());
  CHECK(plain.vary_accept_encoding);

  const auto gz = files.serve("/play/js/big.js", {}, true);
  CHECK(gz.status == 200);
  CHECK(gz.content_encoding == "gzip");
  CHECK(gz.vary_accept_encoding);
  CHECK(gz.content_type == "text/javascript; charset=utf-8");
  CHECK(gz.body.size() < script.size() / 4);
  CHECK(gunzip(gz.body) == script);
  // Each version has its own validator; each revalidates only itself.
  CHECK(gz.etag != plain.etag);
  CHECK(gz.etag.ends_with("-gz\""));
  CHECK(files.serve("/play/js/big.js", gz.etag, true).status == 304);
  CHECK(files.serve("/play/js/big.js", plain.etag, true).status == 200);
  CHECK(files.serve("/play/js/big.js", gz.etag, false).status == 200);
  // Served again from the kept copy: the same bytes.
  CHECK(files.serve("/play/js/big.js", {}, true).body == gz.body);

  // A changed file is compressed again.
  script += "export const last = 1;\n";
  web_tree::write(t.root / "play" / "js" / "big.js", script);
  fs::last_write_time(t.root / "play" / "js" / "big.js", fs::last_write_time(t.root / "play" / "js" / "big.js") +
                                                             std::chrono::seconds(5));
  const auto again = files.serve("/play/js/big.js", {}, true);
  CHECK(again.etag != gz.etag);
  CHECK(gunzip(again.body) == script);

  // Small files and images are sent as they are, whatever the client accepts.
  const auto small = files.serve("/play/js/app.js", {}, true);
  CHECK(small.content_encoding.empty());
  CHECK_FALSE(small.vary_accept_encoding);
  CHECK(small.body == "export const x = 1;\n");
  const auto image = files.serve("/play/big.png", {}, true);
  CHECK(image.content_encoding.empty());
  CHECK(image.body == png);
}
