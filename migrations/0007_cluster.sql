-- 0007: rooms across nodes (docs/cluster.md). Which node runs each room (a
-- lease it renews) and each node's lobby listing. An SQLite file has one
-- owner process, so here one node only ever claims; the tables are the same
-- as PostgreSQL's so that every store keeps the same semantics.
-- Times are milliseconds since the Unix epoch (UTC), on the database's
-- clock (the claiming statements read it), not a node's.

-- A room belongs to node_id until expires_ms; after that another node may
-- claim it. No row: no node holds the room (never claimed, or released).
-- The room's match is found through matches.room_id.
CREATE TABLE room_leases (
  room_id    TEXT    NOT NULL PRIMARY KEY,
  node_id    TEXT    NOT NULL,
  expires_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX room_leases_node ON room_leases (node_id);

-- The lobby: each node replaces its rows in one transaction (publish), and
-- published_ms says it is alive; readers skip nodes that stopped publishing.
CREATE TABLE lobby_nodes (
  node_id      TEXT    NOT NULL PRIMARY KEY,
  published_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE lobby_rooms (
  node_id      TEXT NOT NULL REFERENCES lobby_nodes (node_id),
  room_id      TEXT NOT NULL,
  summary_json TEXT NOT NULL,                      -- the protocol's room summary, as the node sent it
  PRIMARY KEY (node_id, room_id)
) WITHOUT ROWID;
