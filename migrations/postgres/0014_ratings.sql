-- 0014 (PostgreSQL dialect of ../0014_ratings.sql): ratings
-- (docs/ratings.md). A match says whether it is rated (matches.rated: the
-- rated queue creates rated rooms; 0 for every match before). A rated
-- match's end writes, in the same transaction as its result, one
-- rating_changes row per seat and each seat's ratings row (read FOR UPDATE).
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

-- An account's rating on one ladder. Generic columns: on 'duel' (Glicko-2)
-- value is the rating, deviation the RD, volatility sigma; on 'ffa' and
-- '2v2' (OpenSkill) value is mu, deviation sigma, volatility NULL. display
-- is the number shown and ranked (the rating; 30 * (mu - 3 sigma)).
-- last_ms: the end of the last rated game (Glicko-2's idle RD growth).
-- No foreign key to accounts: a deleted account keeps its id and row.
CREATE TABLE ratings (
  account_id BIGINT           NOT NULL,
  ladder     TEXT             NOT NULL CHECK (ladder IN ('duel', 'ffa', '2v2')),
  value      DOUBLE PRECISION NOT NULL,
  deviation  DOUBLE PRECISION NOT NULL,
  volatility DOUBLE PRECISION,
  display    DOUBLE PRECISION NOT NULL,
  games      BIGINT           NOT NULL,
  wins       BIGINT           NOT NULL,
  losses     BIGINT           NOT NULL,
  last_ms    BIGINT           NOT NULL,
  PRIMARY KEY (account_id, ladder)
);
CREATE INDEX ratings_ladder ON ratings (ladder, display DESC, account_id);

-- What one rated match did to one seat's rating: the values before (as the
-- ratings row held them, before_last_ms 0 for a first game) and after, and
-- the displayed number's change. verify re-derives after from before and
-- the match's result. One row per (match, seat): a match is rated once.
CREATE TABLE rating_changes (
  match_id          TEXT             NOT NULL REFERENCES matches (match_id),
  seat              INTEGER          NOT NULL,
  account_id        BIGINT           NOT NULL,
  ladder            TEXT             NOT NULL CHECK (ladder IN ('duel', 'ffa', '2v2')),
  ended_ms          BIGINT           NOT NULL,
  before_value      DOUBLE PRECISION NOT NULL,
  before_deviation  DOUBLE PRECISION NOT NULL,
  before_volatility DOUBLE PRECISION,
  before_last_ms    BIGINT           NOT NULL,
  after_value       DOUBLE PRECISION NOT NULL,
  after_deviation   DOUBLE PRECISION NOT NULL,
  after_volatility  DOUBLE PRECISION,
  delta             DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (match_id, seat)
);
CREATE INDEX rating_changes_account ON rating_changes (account_id, ended_ms DESC, match_id DESC);
