#include "persist/migrations.hpp"

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "common/strcat.hpp"
#include "persist/match_store.hpp"

namespace cod::server {

using detail::cat;

namespace {

[[noreturn]] void refuse(const std::string& where, const std::string& why) {
  throw persist_error(cat("database ", where, ": ", why));
}

}  // namespace

int check_applied(const std::string& where, const std::vector<applied_migration>& rows,
                  std::span<const migration> ours) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].version != static_cast<int>(i) + 1) {
      std::string versions;
      for (const applied_migration& r : rows) versions += cat(versions.empty() ? "" : ", ", r.version);
      refuse(where, cat("schema_migrations is not contiguous from 1 (it records versions ", versions,
                        "); the schema is in an unknown state"));
    }
  }
  const int version = static_cast<int>(rows.size());
  const int known = static_cast<int>(ours.size());
  if (version > known) {
    refuse(where, cat("schema version ", version, " is newer than this program knows (", known,
                      "): the database was written by a newer cod-server; run that version or restore a backup"));
  }
  for (const applied_migration& r : rows) {
    const migration& m = ours[static_cast<std::size_t>(r.version - 1)];
    if (r.name != m.name)
      refuse(where, cat("migration ", r.version, " was applied as '", r.name, "' but this program's is '", m.name,
                        "'"));
    if (r.sha256 != sha256_hex(m.sql))
      spdlog::warn("persist: {}: migration {} was applied from a different text than this program's {} "
                   "(migrations are forward-only: never edit a released one)",
                   where, r.version, m.name);
  }
  return version;
}

int known_schema_version() { return static_cast<int>(embedded_migrations().size()); }

void check_embedded() {
  const auto list = embedded_migrations();
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].version != static_cast<int>(i) + 1)
      throw persist_error("internal: embedded migrations are not numbered contiguously from 1");
}

}  // namespace cod::server
