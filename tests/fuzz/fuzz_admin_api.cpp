// Fuzz target: the admin HTTP API's handler (admin/admin_api.hpp), what
// http_session hands every /admin/api/ request to. The store (memory_store)
// holds the real recorded matches of corpus/stored_log/match-*.json (a
// finished duel, one being played, a drafted one). Input: lines "METHOD",
// "TARGET", "AUTHORIZATION", then the body. Checks: handle() never throws or
// crashes; a JSON answer is valid JSON; nothing answers 200 without the
// admin token in the Authorization header (the organiser's token opens only
// the tournament routes, not set here: 404).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "admin/admin_api.hpp"
#include "fuzz_common.hpp"
#include "persist/memory/memory_store.hpp"
#include "stored_match_json.hpp"

namespace srv = cod::server;

namespace {

constexpr std::string_view admin_token = "fuzz-admin-token-0123456789";
constexpr std::string_view organiser_token = "fuzz-organiser-token-0123456789";

void store_match(srv::match_store& store, const srv::stored_match& sm) {
  store.create_match(sm.match, nullptr);
  for (const auto& a : sm.actions) store.append_action(sm.match.match_id, a, nullptr);
  if (!sm.draft.empty()) store.append_draft(sm.match.match_id, sm.draft, nullptr);
  for (const auto& n : sm.notes) store.append_note(sm.match.match_id, n.at_ms, n.text);
  if (sm.result) store.finish_match(sm.match.match_id, *sm.result, nullptr);
}

const srv::admin::api& api() {
  static const auto store = [] {
    spdlog::set_level(spdlog::level::off);  // the access log of every request
    auto s = std::make_unique<srv::memory_store>(srv::memory_store::callbacks::run_inline);
    for (const auto& e : std::filesystem::directory_iterator(COD_FUZZ_DIR "/corpus/stored_log")) {
      if (e.path().filename().string().rfind("match-", 0) != 0) continue;
      std::ifstream in(e.path());
      store_match(*s, cod::fuzz::stored_match_from_json(nlohmann::json::parse(in)));
    }
    s->flush();
    return s;
  }();
  static const srv::admin::api a(std::string(admin_token), cod::fuzz::shipped(), *store, srv::environment::system(),
                                 std::string(organiser_token));
  return a;
}

// The next line of `in` (without its '\n'); the rest stays in `in`.
std::string next_line(std::string_view& in) {
  const std::size_t end = in.find('\n');
  std::string line(in.substr(0, end));
  in = end == std::string_view::npos ? std::string_view() : in.substr(end + 1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  srv::admin::request req;
  req.method = next_line(in);
  req.target = next_line(in);
  req.authorization = next_line(in);
  req.remote = "127.0.0.1:40000";
  req.body = std::string(in);
  const srv::admin::response r = api().handle(req);
  if (r.content_type.rfind("application/json", 0) == 0)
    cod::fuzz::check(!nlohmann::json::parse(r.body, nullptr, false).is_discarded(), "a JSON answer is not JSON");
  if (r.status == 200)
    cod::fuzz::check(req.authorization.find(admin_token) != std::string::npos, "answered 200 without the admin token");
  return 0;
}
