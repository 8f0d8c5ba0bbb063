// Fuzz target: cod-admin's and the admin API's readers of stored matches
// (replay/recovery.hpp, replay/draft_log.hpp, admin/match_report.hpp),
// which replay what the store kept: the record (mode, format, options, decks,
// Champions, seed), the action log (each action's text and digest), the
// draft log and the result. Input: a stored match as stored_match_json.hpp
// writes it (the seeds are real recorded matches). Checks: nothing throws or
// crashes, whatever the store holds; every JSON document produced serialises
// (valid UTF-8); the rendered log is complete exactly when rebuild() replays
// the whole log; verify() passes only with a replay that passed.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include <nlohmann/json.hpp>

#include "admin/match_report.hpp"
#include "fuzz_common.hpp"
#include "replay/draft_log.hpp"
#include "replay/recovery.hpp"
#include "stored_match_json.hpp"

namespace adm = cod::server::admin;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& cat = cod::fuzz::shipped();
  const auto j = nlohmann::json::parse(std::string_view(reinterpret_cast<const char*>(data), size), nullptr, false);
  cod::server::stored_match sm;
  try {
    sm = cod::fuzz::stored_match_from_json(j);
  } catch (const std::exception&) {  // nlohmann's type errors, stored_match_json's integer check
    return 0;  // not a shape the store has
  }
  const auto rebuilt = cod::server::rebuild(cat, sm);
  const auto log = adm::render_log(cat, sm);
  cod::fuzz::check(log.complete == rebuilt.ok, "render_log and rebuild disagree");
  (void)adm::log_to_json(sm, log).dump();
  (void)adm::log_to_text(sm, log);
  const auto v = cod::server::verify(cat, sm);
  cod::fuzz::check(!v.ok || v.replay.ok, "verify passed a log that does not replay");
  (void)adm::verify_to_json(sm, v).dump();
  const auto steps = static_cast<std::int64_t>(sm.actions.size());
  for (const std::int64_t step : {std::int64_t{-1}, std::int64_t{0}, steps / 2, steps, steps + 1}) {
    const auto s = adm::state_at(cat, sm, step);
    if (s.ok) (void)s.body.dump();
  }
  (void)cod::server::replay_draft_log(cat, sm);
  if (adm::has_draft_record(sm)) (void)adm::draft_to_json(cat, sm).dump();
  (void)adm::export_match(sm).dump();
  (void)adm::record_to_json(sm).dump();
  return 0;
}
