// gzip for the static files (RFC 1952), so that a browser's first visit
// fetches the catalogue and scripts compressed: deflate from Beast's zlib
// port and CRC-32 from Boost.CRC, both already among our Boost headers.
#pragma once

#include <string>
#include <string_view>

namespace cod::server {

// `data` as one gzip member (no file name, mtime 0). `level` 1 (fast) to 9
// (small); the files are compressed once and kept, so 9 by default.
std::string gzip_compress(std::string_view data, int level = 9);

// Whether an Accept-Encoding header value accepts gzip: "gzip" or "*" listed
// with a q-value above 0 ("gzip;q=0" refuses it; "*" does not override an
// explicit "gzip;q=0"). Tokens are case-insensitive.
bool accepts_gzip(std::string_view accept_encoding);

}  // namespace cod::server
