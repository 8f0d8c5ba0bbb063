-- 0010 (PostgreSQL dialect of ../0010_leagues.sql): mutation leagues (R15),
-- one row a league, saved whole after every change (record_json: the league
-- service's document, from which the league replays).
CREATE TABLE leagues (
  league_id   TEXT    NOT NULL PRIMARY KEY,
  name        TEXT    NOT NULL,
  created_ms  BIGINT  NOT NULL,
  finished    INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
  record_json TEXT    NOT NULL
);
CREATE INDEX leagues_created ON leagues (created_ms);
