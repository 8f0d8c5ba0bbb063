#include "net/gzip.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>

#include <boost/beast/zlib/deflate_stream.hpp>
#include <boost/crc.hpp>

namespace cod::server {

namespace zlib = boost::beast::zlib;

namespace {

void put_le32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

// The q-value of one Accept-Encoding item's parameters (";q=0.5"): 1 when
// absent; 0 for a malformed one (RFC 9110 12.4.2: "0" to "1" with up to
// three decimals), so that garbage never turns compression on.
double q_value(std::string_view params) {
  while (!params.empty()) {
    const auto semi = params.find(';');
    const std::string_view p = trim(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view{} : params.substr(semi + 1);
    if (p.size() < 2 || (p[0] != 'q' && p[0] != 'Q') || p[1] != '=') continue;
    const std::string_view v = p.substr(2);
    if (v.empty() || (v[0] != '0' && v[0] != '1') || v.size() > 5 || (v.size() > 1 && v[1] != '.')) return 0;
    double q = v[0] - '0', scale = 0.1;
    for (std::size_t i = 2; i < v.size(); ++i, scale /= 10) {
      if (v[i] < '0' || v[i] > '9') return 0;
      q += (v[i] - '0') * scale;
    }
    return q > 1 ? 0 : q;
  }
  return 1;
}

}  // namespace

std::string gzip_compress(std::string_view data, int level) {
  // Header: magic, deflate, no flags, mtime 0, no extra flags, OS unknown.
  std::string out = {'\x1f', '\x8b', '\x08', '\0', '\0', '\0', '\0', '\0', '\0', '\xff'};
  const std::size_t header = out.size();
  zlib::deflate_stream ds;
  ds.reset(level, 15, 8, zlib::Strategy::normal);
  out.resize(header + ds.upper_bound(data.size()) + 16);
  zlib::z_params zs;
  zs.next_in = data.data();
  zs.avail_in = data.size();
  zs.next_out = out.data() + header;
  zs.avail_out = out.size() - header;
  boost::system::error_code ec;
  for (;;) {
    ds.write(zs, zlib::Flush::finish, ec);
    if (ec == zlib::error::end_of_stream) break;  // all of it is out
    if (ec) throw std::runtime_error("gzip: deflate failed: " + ec.message());
    // More output pending (upper_bound leaves room for it; never expected).
    const std::size_t used = out.size() - zs.avail_out;
    out.resize(out.size() * 2);
    zs.next_out = out.data() + used;
    zs.avail_out = out.size() - used;
  }
  out.resize(out.size() - zs.avail_out);
  boost::crc_32_type crc;
  crc.process_bytes(data.data(), data.size());
  put_le32(out, crc.checksum());
  put_le32(out, static_cast<std::uint32_t>(data.size()));  // ISIZE: the size modulo 2^32
  return out;
}

bool accepts_gzip(std::string_view accept_encoding) {
  std::optional<double> gzip, any;
  while (!accept_encoding.empty()) {
    const auto comma = accept_encoding.find(',');
    const std::string_view item = accept_encoding.substr(0, comma);
    accept_encoding = comma == std::string_view::npos ? std::string_view{} : accept_encoding.substr(comma + 1);
    const auto semi = item.find(';');
    const std::string_view coding = trim(item.substr(0, semi));
    const double q = q_value(semi == std::string_view::npos ? std::string_view{} : item.substr(semi + 1));
    if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) gzip = q;
    else if (coding == "*") any = q;
  }
  if (gzip) return *gzip > 0;
  return any && *any > 0;
}

}  // namespace cod::server
