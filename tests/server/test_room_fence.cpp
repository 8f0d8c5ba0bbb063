// A cluster node's room whose write the store's fence refuses (another node
// took its lease: docs/cluster.md, "A room moves away"): the room moves away
// and closes its players' connections with 1001, and the actor gets no
// error: its act was never acknowledged, and it resumes on the room's new
// node as after a dropped connection.
#include <doctest/doctest.h>

#include "persist/memory/memory_store.hpp"
#include "room_harness.hpp"

using namespace cod::server;
using namespace cod::server::test;

namespace {

// Forwards to memory_store until `taken`: then every room write is refused
// as pg_store's fence refuses a node that lost the room's lease.
class fencing_store final : public match_store {
 public:
  bool taken = false;

  void create_match(const match_record& m, done_fn done) override { inner_.create_match(m, gate(std::move(done))); }
  void append_action(const std::string& id, const action_record& a, done_fn done) override {
    if (taken) return done(refusal());
    inner_.append_action(id, a, std::move(done));
  }
  void finish_match(const std::string& id, const match_result& r, done_fn done) override {
    if (taken) return done(refusal());
    inner_.finish_match(id, r, std::move(done));
  }
  void append_note(const std::string& id, std::int64_t at, const std::string& text) override {
    if (!taken) inner_.append_note(id, at, text);
  }
  void append_draft(const std::string& id, const std::vector<draft_event_record>& rows, done_fn done) override {
    if (taken) return done(refusal());
    inner_.append_draft(id, rows, std::move(done));
  }
  void save_tournament(const stored_tournament& t, done_fn done) override { inner_.save_tournament(t, std::move(done)); }
  void record_audit(const audit_record& r, done_fn done) override { inner_.record_audit(r, std::move(done)); }
  void save_league(const stored_league& l, done_fn done) override { inner_.save_league(l, std::move(done)); }
  match_reader& reader() override { return inner_.reader(); }
  void flush() override { inner_.flush(); }
  std::size_t pending() const override { return inner_.pending(); }
  std::uint64_t commits() const override { return inner_.commits(); }
  store_health health() const override { return inner_.health(); }

  memory_store& inner() { return inner_; }

 private:
  static status refusal() {
    return status::conflict("node n1 does not hold the lease of room r (taken over by another node, released, or "
                            "never claimed): the write is fenced off");
  }
  done_fn gate(done_fn done) {
    return [this, done = std::move(done)](const status& st) { done(taken ? refusal() : st); };
  }
  memory_store inner_{memory_store::callbacks::run_inline};
};

}  // namespace

TEST_CASE("room: a write the store's fence refuses moves the room away; its players get 1001 and no error") {
  fencing_store store;
  harness h{test_config(), &store};
  h.rsvc.fenced = true;
  client host = h.connect();
  const std::string room = h.create_room(host);
  auto [a, b] = h.start_duel(room);
  auto& first = active(a.state) == a.seat ? a : b;
  auto& second = &first == &a ? b : a;
  act(first.c, {{"type", "end_turn"}});
  second.c.take();

  store.taken = true;  // another node claimed the room
  const auto answer = act(second.c, {{"type", "end_turn"}}, 7);
  INFO("answer: " << json(answer).dump());
  CHECK(find_type(answer, "error") == nullptr);
  CHECK(find_type(answer, "accepted") == nullptr);
  CHECK(find_type(answer, "update") == nullptr);
  h.ex->run();
  CHECK(find_type(first.c.take(), "error") == nullptr);
  for (auto* c : {&first.c, &second.c}) {
    REQUIRE(c->peer->close_code);
    CHECK(*c->peer->close_code == 1001);
  }
  CHECK(h.rooms->find(room) == nullptr);
  // The stored log is the new owner's to go on from: the refused act is not in it.
  const auto list = read_ok(store.inner().reader().list_matches({}));
  REQUIRE(list.size() == 1);
  const auto stored = read_ok(store.inner().reader().load_match(list[0].match_id));
  REQUIRE(stored);
  CHECK(stored->actions.size() == 1);
  CHECK_FALSE(stored->finished());
}
