-- 0015 (PostgreSQL; the same as ../0015_queue_board.sql): the matchmaking
-- queue of a cluster (docs/queue.md, "In a cluster";
-- server/persist/queue_board.hpp). A node writes a row per search of the
-- players it holds; the node holding the matcher's lease reads the waiting
-- rows of the live nodes, matches them and sets room_id, seat and players (the seats' names, a
-- JSON array); the
-- player's node tells its player and deletes the row.
CREATE TABLE queue_tickets (
  ticket_id   BIGSERIAL PRIMARY KEY,
  node_id     TEXT             NOT NULL,
  account_id  BIGINT           NOT NULL,
  pool        TEXT             NOT NULL,
  rating      DOUBLE PRECISION NOT NULL,
  address     TEXT             NOT NULL,
  name        TEXT             NOT NULL,
  seat_hash   TEXT             NOT NULL,
  deck_json   TEXT             NOT NULL,
  partner     TEXT             NOT NULL DEFAULT '',
  enqueued_ms BIGINT           NOT NULL,
  room_id     TEXT,
  seat        INTEGER,
  players     TEXT
);
-- One waiting search per account and pool, over every node.
CREATE UNIQUE INDEX queue_tickets_waiting ON queue_tickets (account_id, pool) WHERE room_id IS NULL;
CREATE INDEX queue_tickets_node ON queue_tickets (node_id, ticket_id);

-- When each node last said it is alive (its tickets are matched while it is).
CREATE TABLE queue_nodes (
  node_id TEXT   PRIMARY KEY,
  seen_ms BIGINT NOT NULL
);

-- The matcher's lease: one row at most.
CREATE TABLE queue_matcher (
  singleton  INTEGER PRIMARY KEY CHECK (singleton = 1),
  node_id    TEXT    NOT NULL,
  expires_ms BIGINT  NOT NULL
);

-- Each account's opponents in its last queue match (comma-separated
-- account ids), for the no-rematch rule, kept an hour.
CREATE TABLE queue_recent (
  account_id BIGINT PRIMARY KEY,
  opponents  TEXT   NOT NULL,
  at_ms      BIGINT NOT NULL
);
