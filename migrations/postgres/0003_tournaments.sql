-- 0003: tournaments, PostgreSQL dialect of ../0003_tournaments.sql
-- (docs/tournaments.md, docs/persistence.md): times BIGINT, no WITHOUT ROWID,
-- the NOCASE unique name as a unique index on lower(name).
--
-- One tournament is a cod::tournaments::tournament value (server/tournament/):
-- its configuration, players, rounds, pairings, games and the organiser log.
-- Player ids are the 0-based positions of the players at creation. Round
-- numbers run over the whole tournament, Swiss rounds first, then the top
-- cut. Times are milliseconds since the Unix epoch (UTC).

CREATE TABLE tournaments (
  tournament_id      TEXT    NOT NULL PRIMARY KEY,
  name               TEXT    NOT NULL,
  mode               TEXT    NOT NULL DEFAULT 'duel' CHECK (mode = 'duel'),
  format             TEXT    NOT NULL,                 -- a deck format name, as matches.format
  swiss_rounds       INTEGER NOT NULL CHECK (swiss_rounds >= 1),
  best_of            INTEGER NOT NULL CHECK (best_of IN (1, 3)),
  exhaustion         INTEGER NOT NULL DEFAULT 1 CHECK (exhaustion IN (0, 1)),
  clock_bank_ms      BIGINT,                           -- NULL (and the increment NULL): untimed
  clock_increment_ms BIGINT,
  top_cut            INTEGER NOT NULL DEFAULT 0 CHECK (top_cut IN (0, 2, 4, 8)),
  seed               TEXT    NOT NULL,                 -- decimal (uint64): every pairing derives from it
  created_ms         BIGINT  NOT NULL,
  stage              TEXT    NOT NULL DEFAULT 'not_started'
                     CHECK (stage IN ('not_started', 'swiss', 'top_cut', 'finished')),
  CHECK ((clock_bank_ms IS NULL) = (clock_increment_ms IS NULL))
);
CREATE INDEX tournaments_created ON tournaments (created_ms);

-- The players as registered. Join tokens are never stored, only their SHA-256.
CREATE TABLE tournament_players (
  tournament_id    TEXT    NOT NULL REFERENCES tournaments (tournament_id),
  player           INTEGER NOT NULL CHECK (player >= 0),
  name             TEXT    NOT NULL,
  token_hash       TEXT    NOT NULL,
  seed_order       INTEGER NOT NULL,                   -- the last tiebreaker, drawn from the seed
  dropped_in_round INTEGER,                            -- NULL: active; 0: dropped before round 1
  PRIMARY KEY (tournament_id, player)
);
CREATE UNIQUE INDEX tournament_players_name ON tournament_players (tournament_id, lower(name));

CREATE TABLE tournament_rounds (
  tournament_id TEXT    NOT NULL REFERENCES tournaments (tournament_id),
  round         INTEGER NOT NULL CHECK (round >= 1),
  kind          TEXT    NOT NULL CHECK (kind IN ('swiss', 'top_cut')),
  attempt       INTEGER NOT NULL DEFAULT 0,          -- re-pairs of this round so far
  PRIMARY KEY (tournament_id, round)
);

-- player_b NULL: a bye for player_a. In the top cut table_no is the bracket position.
CREATE TABLE tournament_pairings (
  tournament_id TEXT    NOT NULL,
  round         INTEGER NOT NULL,
  table_no      INTEGER NOT NULL CHECK (table_no >= 1),
  player_a      INTEGER NOT NULL,
  player_b      INTEGER,
  PRIMARY KEY (tournament_id, round, table_no),
  FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
);

-- The games of a pairing in order. match_id is the match that played it;
-- NULL for a game decided by a game loss without a match. A game is stored
-- once its match has started (its matches row exists). winner NULL in a
-- decided game: a drawn game.
CREATE TABLE tournament_games (
  tournament_id TEXT    NOT NULL,
  round         INTEGER NOT NULL,
  table_no      INTEGER NOT NULL,
  game_no       INTEGER NOT NULL CHECK (game_no >= 1),
  match_id      TEXT    REFERENCES matches (match_id),
  decided       INTEGER NOT NULL DEFAULT 0 CHECK (decided IN (0, 1)),
  winner        INTEGER,
  penalty       INTEGER NOT NULL DEFAULT 0 CHECK (penalty IN (0, 1)),
  PRIMARY KEY (tournament_id, round, table_no, game_no),
  FOREIGN KEY (tournament_id, round, table_no) REFERENCES tournament_pairings (tournament_id, round, table_no)
);
-- A match ends: which tournament game was it?
CREATE UNIQUE INDEX tournament_games_match ON tournament_games (match_id) WHERE match_id IS NOT NULL;

-- The organiser log: every act in order (drop, game loss, re-pair, round start).
CREATE TABLE tournament_log (
  tournament_id TEXT    NOT NULL REFERENCES tournaments (tournament_id),
  seq           INTEGER NOT NULL CHECK (seq >= 1),   -- 1, 2, 3... contiguous
  at_ms         BIGINT  NOT NULL,
  actor         TEXT    NOT NULL,
  act           TEXT    NOT NULL CHECK (act IN ('start_round', 'drop', 'game_loss', 'repair')),
  round         INTEGER NOT NULL,                    -- the round current at the time (0: before round 1)
  player        INTEGER,                             -- drop, game_loss
  note          TEXT    NOT NULL DEFAULT '',
  PRIMARY KEY (tournament_id, seq)
);
