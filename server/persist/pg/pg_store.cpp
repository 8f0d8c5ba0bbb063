#include "persist/pg/pg_store.hpp"

#include "persist/pg/pg_accounts.hpp"
#include "persist/pg/pg_directory.hpp"
#include "persist/pg/pg_queue.hpp"
#include "persist/pg/pg_util.hpp"
#include "persist/pg/pg_writer.hpp"
#include "persist/write_queue.hpp"

namespace cod::server {

std::string redact_uri(std::string_view uri) { return pg::redact(uri); }

result<std::unique_ptr<pg_store>> pg_store::open(const pg_options& o) {
  try {
    std::unique_ptr<pg_store> s(new pg_store());
    s->writer_ = std::make_unique<detail::pg_writer>(o.uri, o.node_id);
    s->version_at_open_ = s->writer_->schema_before();
    auto reader = pg_reader::open(o.uri);
    if (!reader) return reader.error();
    s->reader_ = std::move(*reader);
    s->directory_ = std::make_unique<detail::pg_directory>(o.uri, *s->reader_);
    s->accounts_ = detail::open_pg_accounts(o.uri);
    s->board_ = std::make_unique<detail::pg_queue>(o.uri);
    detail::pg_writer* w = s->writer_.get();
    s->queue_ = std::make_unique<detail::write_queue>(
        pg::redact(o.uri), o.max_batch,
        [w](std::vector<detail::write_op>& batch, std::vector<status>& out) { w->commit_batch(batch, out); });
    return s;
  } catch (const std::exception& e) {
    return status::io_error(e.what());
  }
}

pg_store::~pg_store() {
  queue_.reset();  // commits what is queued, joins the writer
  accounts_.reset();
  board_.reset();
  directory_.reset();
  reader_.reset();
  writer_.reset();
}

void pg_store::create_match(const match_record& m, done_fn done) {
  queue_->push({detail::create_op{m}, std::move(done)});
}

void pg_store::append_action(const std::string& match_id, const action_record& a, done_fn done) {
  queue_->push({detail::append_op{match_id, a}, std::move(done)});
}

void pg_store::finish_match(const std::string& match_id, const match_result& r, done_fn done) {
  queue_->push({detail::finish_op{match_id, r}, std::move(done)});
}

void pg_store::append_draft(const std::string& match_id, const std::vector<draft_event_record>& rows, done_fn done) {
  queue_->push({detail::draft_op{match_id, rows}, std::move(done)});
}

void pg_store::append_note(const std::string& match_id, std::int64_t at_ms, const std::string& text) {
  queue_->push({detail::note_op{match_id, {at_ms, text}}, nullptr});
}

void pg_store::save_tournament(const stored_tournament& t, done_fn done) {
  queue_->push({detail::tournament_op{t}, std::move(done)});
}

void pg_store::save_league(const stored_league& l, done_fn done) {
  queue_->push({detail::league_save_op{l}, std::move(done)});
}

void pg_store::record_audit(const audit_record& r, done_fn done) {
  queue_->push({detail::audit_op{r}, std::move(done)});
}

void pg_store::flush() { queue_->flush(); }

std::size_t pg_store::pending() const { return queue_->pending(); }

std::uint64_t pg_store::commits() const { return queue_->batches(); }

store_health pg_store::health() const { return writer_->health.get(); }

room_directory* pg_store::directory() { return directory_.get(); }
queue_board* pg_store::queue() { return board_.get(); }

account_store* pg_store::accounts() { return accounts_.get(); }

}  // namespace cod::server
