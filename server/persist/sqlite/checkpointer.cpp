#include "persist/sqlite/checkpointer.hpp"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include "persist/sqlite/sqlite_util.hpp"

namespace cod::server::detail {

checkpointer::checkpointer(const std::string& path, sqlite3* writer, int threshold_pages)
    : db_(std::make_unique<sql::db>(path, sql::db::mode::read_write_create)),
      writer_(writer),
      threshold_(threshold_pages > 0 ? threshold_pages : 1) {
  sqlite3_busy_timeout(db_->handle(), 5000);
  // A connection learns that the file is in WAL mode only when it first
  // reads it; until then sqlite3_wal_checkpoint_v2 does nothing and reports
  // -1 pages (SQLITE_OK), and the WAL grew without bound while the server ran
  // (scripts/soak: 2 GB in five minutes, the database file still 4 KB).
  db_->query_text("PRAGMA schema_version");
  thread_ = std::thread([this] { run(); });
  // From now on the writer's commits report their WAL size to us.
  sqlite3_wal_hook(writer_, &checkpointer::on_wal_commit, this);
}

checkpointer::~checkpointer() {
  sqlite3_wal_hook(writer_, nullptr, nullptr);
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_one();
  thread_.join();
}

std::uint64_t checkpointer::runs() const {
  std::lock_guard lk(mu_);
  return runs_;
}

// On the writer thread, after each commit: only a flag and a notify.
int checkpointer::on_wal_commit(void* self, sqlite3*, const char*, int pages) {
  auto* c = static_cast<checkpointer*>(self);
  if (pages >= c->threshold_) {
    {
      std::lock_guard lk(c->mu_);
      c->wanted_ = true;
    }
    c->cv_.notify_one();
  }
  return SQLITE_OK;
}

void checkpointer::run() {
  for (;;) {
    bool stopping = false;
    {
      std::unique_lock lk(mu_);
      cv_.wait(lk, [&] { return wanted_ || stop_; });
      stopping = stop_;
      wanted_ = false;
    }
    checkpoint_once();
    if (stopping) return;
  }
}

void checkpointer::checkpoint_once() {
  int log_pages = 0, done_pages = 0;
  const int rc = sqlite3_wal_checkpoint_v2(db_->handle(), nullptr, SQLITE_CHECKPOINT_PASSIVE, &log_pages,
                                           &done_pages);
  if (rc != SQLITE_OK && rc != SQLITE_BUSY)
    spdlog::warn("persist: {}: checkpoint failed: {}", db_->path(), sqlite3_errmsg(db_->handle()));
  else
    spdlog::debug("persist: {}: checkpoint: {} of {} WAL pages copied", db_->path(), done_pages, log_pages);
  std::lock_guard lk(mu_);
  ++runs_;
  if (rc == SQLITE_OK && done_pages > 0) pages_copied_ += static_cast<std::uint64_t>(done_pages);
}

std::uint64_t checkpointer::pages_copied() const {
  std::lock_guard lk(mu_);
  return pages_copied_;
}

}  // namespace cod::server::detail
