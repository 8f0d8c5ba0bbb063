#include "net/static_files.hpp"

#include "net/gzip.hpp"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <system_error>

namespace cod::server {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t max_file_bytes = std::uintmax_t{16} << 20;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Smaller files gain too little from gzip to pay for the header.
constexpr std::uintmax_t min_gzip_bytes = 1024;
// The compressed copies kept; past this the cache starts again (the web
// root holds a few hundred KB, so this only bounds a surprise).
constexpr std::size_t max_gzip_cache_bytes = std::size_t{32} << 20;

// The types gzip shrinks (images and fonts are compressed already).
bool compressible(std::string_view content_type) {
  return starts_with(content_type, "text/") || starts_with(content_type, "application/json") ||
         starts_with(content_type, "image/svg+xml") || starts_with(content_type, "application/wasm");
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static_result not_found() {
  static_result r;
  r.status = 404;
  r.content_type = "text/plain; charset=utf-8";
  r.body = "not found\n";
  r.cache_control = "no-store";
  return r;
}

// A directory named without its trailing "/": relative links in its
// index.html resolve against the URL, so send the browser to "<path>/".
static_result add_slash(std::string_view path) {
  static_result r;
  r.status = 301;
  r.location = std::string(path) + "/";
  r.cache_control = "no-cache";
  r.content_type = "text/plain; charset=utf-8";
  return r;
}

// Whether one decoded segment may name a file or directory under the root.
bool safe_segment(std::string_view seg) {
  if (seg.empty() || seg[0] == '.') return false;  // "", ".", "..", hidden files
  for (unsigned char c : seg)
    if (c < 0x20 || c == 0x7f || c == '\\' || c == ':') return false;
  return true;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  if (if_none_match.empty()) return false;
  if (if_none_match == "*") return true;
  // A comma-separated list; weak validators ("W/") compare equal for GET.
  std::size_t pos = 0;
  while (pos <= if_none_match.size()) {
    auto comma = if_none_match.find(',', pos);
    auto item = if_none_match.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (starts_with(item, "W/")) item.remove_prefix(2);
    if (item == etag) return true;
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return false;
}

}  // namespace

struct static_files::gzip_cache {
  struct gzipped {
    std::string etag;  // the identity version it was made from
    std::string body;  // empty: not smaller than the file
  };
  std::mutex mu;  // io threads serve at once
  std::map<std::string, gzipped> by_file;
  std::size_t bytes = 0;
};

static_files::static_files(std::string root) : root_(std::move(root)), gzip_(std::make_shared<gzip_cache>()) {
  if (root_.empty()) return;
  std::error_code ec;
  auto real = fs::canonical(root_, ec);
  if (!ec && fs::is_directory(real, ec)) real_root_ = real.string();
}

void static_files::add_file(std::string url_path, std::string file_path) {
  files_[std::move(url_path)] = std::move(file_path);
}

void static_files::add_content(std::string url_path, std::string body) {
  content c;
  c.content_type = std::string(mime_type(url_path));
  // FNV-1a: the ETag tells versions apart; it is no secret.
  std::uint64_t h = 14695981039346656037ULL;
  for (unsigned char ch : body) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  char tag[64];
  std::snprintf(tag, sizeof tag, "\"%zx-%016llx\"", body.size(), static_cast<unsigned long long>(h));
  c.etag = tag;
  if (compressible(c.content_type) && body.size() >= min_gzip_bytes) {
    c.gz = gzip_compress(body);
    if (c.gz.size() >= body.size()) c.gz.clear();
  }
  c.body = std::move(body);
  contents_[std::move(url_path)] = std::move(c);
}

static_result static_files::content_result(const content& c, std::string_view if_none_match, bool gzip) {
  static_result r;
  r.cache_control = "no-cache";
  r.content_type = c.content_type;
  r.vary_accept_encoding = compressible(c.content_type) && c.body.size() >= min_gzip_bytes;
  const bool use_gz = gzip && !c.gz.empty();
  r.etag = use_gz ? c.etag.substr(0, c.etag.size() - 1) + "-gz\"" : c.etag;
  if (etag_matches(if_none_match, r.etag)) {
    r.status = 304;
    return r;
  }
  r.status = 200;
  r.body = use_gz ? c.gz : c.body;
  if (use_gz) r.content_encoding = "gzip";
  return r;
}

bool static_files::claims(std::string_view path) {
  if (path == "/play" || starts_with(path, "/play/")) return true;
  if (path == "/admin") return true;
  if (starts_with(path, "/admin/")) return !(path == "/admin/api" || starts_with(path, "/admin/api/"));
  return false;
}

std::string_view static_files::mime_type(std::string_view name) {
  struct entry {
    std::string_view ext, type;
  };
  static constexpr entry types[] = {
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/plain; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".webp", "image/webp"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".woff", "font/woff"},
      {".wasm", "application/wasm"},
  };
  const auto dot = name.rfind('.');
  const auto slash = name.rfind('/');
  if (dot != std::string_view::npos && (slash == std::string_view::npos || dot > slash)) {
    std::string ext(name.substr(dot));
    for (auto& ch : ext)
      if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    for (const auto& t : types)
      if (ext == t.ext) return t.type;
  }
  return "application/octet-stream";
}

std::optional<std::string> static_files::percent_decode(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == '%') {
      if (i + 2 >= path.size()) return std::nullopt;
      const int hi = hex_value(path[i + 1]), lo = hex_value(path[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      if (c == '\0') return std::nullopt;
      i += 2;
    }
    out += c;
  }
  return out;
}

std::string static_files::compressed(const std::string& file, const std::string& etag,
                                     const std::string& body) const {
  gzip_cache& c = *gzip_;
  {
    std::lock_guard lock(c.mu);
    if (auto it = c.by_file.find(file); it != c.by_file.end() && it->second.etag == etag) return it->second.body;
  }
  std::string gz = gzip_compress(body);
  if (gz.size() >= body.size()) gz.clear();
  std::lock_guard lock(c.mu);
  if (auto it = c.by_file.find(file); it != c.by_file.end()) {
    c.bytes -= it->second.body.size();
    c.by_file.erase(it);
  }
  if (c.bytes + gz.size() > max_gzip_cache_bytes) {
    c.by_file.clear();
    c.bytes = 0;
  }
  c.bytes += gz.size();
  c.by_file[file] = {etag, gz};
  return gz;
}

static_result static_files::file_result(const std::string& file, std::string_view if_none_match, bool gzip) const {
  std::error_code ec;
  const auto status = fs::status(file, ec);
  if (ec || !fs::is_regular_file(status)) return not_found();
  const auto size = fs::file_size(file, ec);
  if (ec || size > max_file_bytes) return not_found();
  const auto mtime = fs::last_write_time(file, ec);
  if (ec) return not_found();

  static_result r;
  char tag[64];
  std::snprintf(tag, sizeof tag, "\"%llx-%llx\"", static_cast<unsigned long long>(size),
                static_cast<unsigned long long>(mtime.time_since_epoch().count()));
  const std::string identity_tag = tag;
  r.cache_control = "no-cache";
  r.content_type = std::string(mime_type(file));
  // A text file has two versions, told apart by their ETags (a strong
  // validator names one exact body): caches must key on Accept-Encoding.
  r.vary_accept_encoding = compressible(r.content_type) && size >= min_gzip_bytes;
  const bool try_gzip = gzip && r.vary_accept_encoding;
  const std::string gzip_tag = identity_tag.substr(0, identity_tag.size() - 1) + "-gz\"";
  r.etag = try_gzip ? gzip_tag : identity_tag;
  if (etag_matches(if_none_match, r.etag)) {
    r.status = 304;
    return r;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return not_found();
  std::ostringstream text;
  text << in.rdbuf();
  r.body = std::move(text).str();
  r.status = 200;
  if (try_gzip) {
    if (std::string gz = compressed(file, identity_tag, r.body); !gz.empty()) {
      r.body = std::move(gz);
      r.content_encoding = "gzip";
    } else {
      r.etag = identity_tag;  // gzip would not make it smaller
    }
  }
  return r;
}

static_result static_files::serve(std::string_view path, std::string_view if_none_match, bool gzip) const {
  if (!claims(path)) return not_found();
  if (auto it = contents_.find(path); it != contents_.end()) return content_result(it->second, if_none_match, gzip);
  if (auto it = files_.find(path); it != files_.end()) return file_result(it->second, if_none_match, gzip);
  if (path == "/play" || path == "/admin") return add_slash(path);
  if (real_root_.empty()) return not_found();

  auto decoded = percent_decode(path);
  if (!decoded) return not_found();
  // "/play/js/app.js" -> segments play, js, app.js; a trailing "/" names
  // the directory's index.html.
  std::string_view rel(*decoded);
  rel.remove_prefix(1);
  const bool directory = ends_with(rel, "/");
  if (directory) rel.remove_suffix(1);
  fs::path p(real_root_);
  std::size_t pos = 0;
  while (pos <= rel.size()) {
    auto slash = rel.find('/', pos);
    auto seg = rel.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    if (!safe_segment(seg)) return not_found();
    p /= std::string(seg);
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  std::error_code ec;
  if (directory) p /= "index.html";
  else if (fs::is_directory(p, ec)) return add_slash(path);
  // Symlinks may not lead outside the root.
  const auto real = fs::canonical(p, ec);
  if (ec) return not_found();
  const std::string real_s = real.string();
  if (real_s.size() <= real_root_.size() || real_s.compare(0, real_root_.size(), real_root_) != 0 ||
      real_s[real_root_.size()] != '/')
    return not_found();
  return file_result(real_s, if_none_match, gzip);
}

}  // namespace cod::server
