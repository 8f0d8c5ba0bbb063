// Static files for the browser clients: GET /play/... and /admin/... from a
// directory (config key web_root; the shipped server/web by default), plus a
// few single files published under a URL of their own (the card catalogue at
// /play/catalogue.json). No HTTP types here: http_session turns the result
// into a response, and the tests call serve() directly.
//
// What it refuses: any target that, once %-decoded, has a segment "." or
// "..", an empty segment, a segment starting with "." (hidden files), a
// backslash, a NUL or a control character, and any file whose real path (after
// symlinks) is outside web_root. All of these are a plain 404, like a missing
// file, so that nothing tells what exists outside.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cod::server {

struct static_result {
  int status = 200;           // 200, 301, 304, 404
  std::string content_type;   // "text/html; charset=utf-8"
  std::string body;           // the file (empty for 301, 304)
  std::string etag;           // "\"<size>-<mtime>\"", for 200 and 304
  std::string location;       // 301 only
  std::string cache_control;  // "no-cache" (revalidate with the ETag each time)
  std::string content_encoding;     // "gzip" when the body is compressed, else empty
  bool vary_accept_encoding = false;  // the answer depends on Accept-Encoding (a text file)
};

class static_files {
 public:
  // root: the directory whose play/ and admin/ subdirectories are served.
  // Empty: nothing is served (every /play and /admin target is 404).
  explicit static_files(std::string root);

  // Publishes one file at an exact URL path.
  void add_file(std::string url_path, std::string file_path);
  // Publishes `body` itself at an exact URL path ("/play/catalogue.json": the
  // catalogue the server loaded, without its file's indentation), typed by
  // the path's extension; its ETag is a hash of the body, its gzip copy made
  // here, once.
  void add_content(std::string url_path, std::string body);

  // Whether the target (path only, query removed) is one of ours: /play,
  // /play/..., /admin, /admin/... except the admin API (/admin/api/...).
  static bool claims(std::string_view path);

  // Serves a GET (or HEAD) of `path` (query removed, still %-encoded).
  // if_none_match: the request's If-None-Match header, or empty.
  // gzip: the client accepts gzip (accepts_gzip of its Accept-Encoding):
  // a text file of 1 KiB or more is sent compressed (compressed once per
  // version of the file and kept), with an ETag of its own ("...-gz").
  static_result serve(std::string_view path, std::string_view if_none_match = {}, bool gzip = false) const;

  const std::string& root() const { return root_; }

  // "text/javascript; charset=utf-8" for "app.js"; application/octet-stream
  // for an unknown extension.
  static std::string_view mime_type(std::string_view file_name);

  // %-decodes a path; nullopt for a bad escape or an encoded NUL.
  static std::optional<std::string> percent_decode(std::string_view path);

 private:
  static_result file_result(const std::string& file, std::string_view if_none_match, bool gzip) const;
  // The gzip body of `file` at version `etag` (empty: compression does not
  // make it smaller), from the cache or made now from `body`.
  std::string compressed(const std::string& file, const std::string& etag, const std::string& body) const;

  std::string root_;       // as given
  std::string real_root_;  // canonical, "" when root_ is empty or missing
  std::map<std::string, std::string, std::less<>> files_;
  struct content {
    std::string content_type;
    std::string body;
    std::string gz;    // empty: not compressible, or gzip is not smaller
    std::string etag;  // identity version
  };
  std::map<std::string, content, std::less<>> contents_;
  static static_result content_result(const content& c, std::string_view if_none_match, bool gzip);

  struct gzip_cache;  // the compressed copies, by real path
  std::shared_ptr<gzip_cache> gzip_;
};

}  // namespace cod::server
