-- 0006 (PostgreSQL dialect of ../0006_admin_audit.sql): the admin audit log
-- (docs/admin.md, "Audit"). One row each time an admin or organiser reads a
-- match that is still being played through the admin API (its record, log,
-- state, export, draft or verify: each shows something the players do not
-- see, such as decks, hands or picks). Rows are only ever added. Times are
-- milliseconds since the Unix epoch (UTC). No foreign key to matches: the
-- audit outlives whatever happens to them.

CREATE TABLE admin_audit (
  audit_id BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at_ms    BIGINT  NOT NULL,
  role     TEXT    NOT NULL CHECK (role IN ('admin', 'organiser')),
  remote   TEXT    NOT NULL,          -- the peer, "ip:port"
  match_id TEXT    NOT NULL,
  route    TEXT    NOT NULL,          -- record | log | log/raw | state | export | draft | verify | tournament export
  target   TEXT    NOT NULL           -- the request's method and target, as in the access log
);
CREATE INDEX admin_audit_match ON admin_audit (match_id, at_ms);
