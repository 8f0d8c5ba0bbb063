-- 0005 (PostgreSQL dialect of ../0005_tournament_server_options.sql): what
-- the server adds to a tournament beyond the tournament value
-- (docs/tournaments.md, "Organiser API"): how far behind its spectators are,
-- and whether the next round starts by itself. One row per tournament,
-- written with it.

CREATE TABLE tournament_server_options (
  tournament_id   TEXT    NOT NULL PRIMARY KEY REFERENCES tournaments (tournament_id),
  spectator_delay INTEGER NOT NULL DEFAULT 0 CHECK (spectator_delay >= 0),  -- in actions
  auto_advance    INTEGER NOT NULL DEFAULT 0 CHECK (auto_advance IN (0, 1))
);
