-- 0001: the match archive, PostgreSQL dialect (docs/persistence.md). The same
-- tables as ../0001_initial.sql (SQLite), translated: times and ids BIGINT,
-- no WITHOUT ROWID (every table is a heap with its primary key's index),
-- NOCASE name searches as an index on lower(name), INTEGER PRIMARY KEY as an
-- identity column. Forward-only, like the SQLite files: never edit a released
-- one. The runner (server/persist/pg_migrations.cpp) applies the missing
-- files in one transaction under an advisory lock.
-- Times are milliseconds since the Unix epoch (UTC).

-- One row per match, created when every seat is taken and the match starts.
CREATE TABLE matches (
  match_id       TEXT    NOT NULL PRIMARY KEY,
  room_id        TEXT    NOT NULL,
  mode           TEXT    NOT NULL,                 -- 'duel'
  format         TEXT    NOT NULL,                 -- 'preconstructed' | 'constructed'
  options_json   TEXT    NOT NULL DEFAULT '{}',    -- {"exhaustion": true, ...}
  rules_version  TEXT    NOT NULL,
  engine_version INTEGER NOT NULL,
  seed           TEXT    NOT NULL,                 -- the match seed, decimal (uint64); secret until the end
  seed_hash      TEXT    NOT NULL,                 -- SHA-256 hex of the seed's decimal text (the commitment)
  created_ms     BIGINT  NOT NULL,
  status         TEXT    NOT NULL DEFAULT 'playing'
                 CHECK (status IN ('playing', 'finished')),
  ended_ms       BIGINT,                           -- NULL while playing
  winners        TEXT,                             -- JSON array of seats, e.g. [1]; NULL while playing
  reason         TEXT                              -- protocol end_reason_name; NULL while playing
);
CREATE INDEX matches_created ON matches (created_ms);
CREATE INDEX matches_status ON matches (status, created_ms);
CREATE INDEX matches_room ON matches (room_id);

-- The seats as joined. Tokens are never stored, only their SHA-256.
CREATE TABLE match_seats (
  match_id   TEXT    NOT NULL REFERENCES matches (match_id),
  seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
  name       TEXT    NOT NULL,
  token_hash TEXT    NOT NULL,
  deck_json  TEXT    NOT NULL,                     -- {"preconstructed": 1} | {"cards": [ids]}
  team       INTEGER,                              -- team modes (later); NULL in a duel
  PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_name ON match_seats (lower(name));

-- The action log: every accepted action in order, with the state digest after it.
CREATE TABLE match_actions (
  match_id    TEXT    NOT NULL REFERENCES matches (match_id),
  seq         BIGINT  NOT NULL CHECK (seq >= 1),   -- 1, 2, 3... contiguous
  seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
  action_json TEXT    NOT NULL,                    -- protocol::action_to_json
  digest      TEXT    NOT NULL,                    -- match::digest() after the action, 16 hex digits
  at_ms       BIGINT  NOT NULL,
  PRIMARY KEY (match_id, seq)
);

-- Free-form lines an admin reads with the match (clock events, timeouts...).
CREATE TABLE match_notes (
  note_id  BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  match_id TEXT    NOT NULL REFERENCES matches (match_id),
  at_ms    BIGINT  NOT NULL,
  text     TEXT    NOT NULL
);
CREATE INDEX match_notes_match ON match_notes (match_id, note_id);

-- Draft modes (later): the cards revealed to a seat and the picks it made.
CREATE TABLE draft_events (
  match_id   TEXT    NOT NULL REFERENCES matches (match_id),
  seq        BIGINT  NOT NULL CHECK (seq >= 1),
  seat       INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
  kind       TEXT    NOT NULL CHECK (kind IN ('reveal', 'pick')),
  cards_json TEXT    NOT NULL,                     -- JSON array of catalogue ids
  at_ms      BIGINT  NOT NULL,
  PRIMARY KEY (match_id, seq)
);
