-- 0010: mutation leagues (R15; docs/league.md, docs/persistence.md "Leagues").
-- One row a league, saved whole after every change: record_json is the
-- league service's document (its configuration, the players with their join
-- tokens' SHA-256, every op in order, its duels' rooms and matches), from
-- which the league replays (cod::replay_league). Times are milliseconds
-- since the Unix epoch (UTC); created_ms is kept from the first save.
CREATE TABLE leagues (
  league_id   TEXT    NOT NULL PRIMARY KEY,
  name        TEXT    NOT NULL,
  created_ms  INTEGER NOT NULL,
  finished    INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
  record_json TEXT    NOT NULL
);
CREATE INDEX leagues_created ON leagues (created_ms);
