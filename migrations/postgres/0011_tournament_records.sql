-- 0011 (PostgreSQL dialect of ../0011_tournament_records.sql): a tournament
-- is one record, as a league is (0010): one row a tournament, saved whole
-- after every change, its value a JSON document in record_json (the document
-- of server/persist/tournament_record.hpp), and beside it the matches its
-- games name. The tables of 0003 and 0005 are rewritten into that document
-- here, then dropped.
CREATE TABLE tournament_records (
  tournament_id TEXT    NOT NULL PRIMARY KEY,
  name          TEXT    NOT NULL,
  created_ms    BIGINT  NOT NULL,
  finished      INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
  record_json   TEXT    NOT NULL
);

-- No player was NULL in the tables and is -1 in the document; a game decided
-- without a match had a NULL match_id and has "". Each list in its order.
INSERT INTO tournament_records (tournament_id, name, created_ms, finished, record_json)
SELECT t.tournament_id, t.name, t.created_ms, (t.stage = 'finished')::int,
  json_build_object(
    'config', json_build_object(
      'name', t.name, 'mode', t.mode, 'format', t.format, 'swiss_rounds', t.swiss_rounds, 'best_of', t.best_of,
      'exhaustion', t.exhaustion <> 0,
      'clock', CASE WHEN t.clock_bank_ms IS NULL THEN NULL
                    ELSE json_build_object('bank_ms', t.clock_bank_ms, 'increment_ms', t.clock_increment_ms) END,
      'top_cut', t.top_cut, 'seed', t.seed),
    'players', coalesce((SELECT json_agg(json_build_object(
        'name', p.name, 'token_hash', p.token_hash, 'seed_order', p.seed_order,
        'dropped_in_round', coalesce(p.dropped_in_round, -1)) ORDER BY p.player)
      FROM tournament_players p WHERE p.tournament_id = t.tournament_id), '[]'::json),
    'rounds', coalesce((SELECT json_agg(json_build_object(
        'number', r.round, 'kind', r.kind, 'attempt', r.attempt,
        'pairings', coalesce((SELECT json_agg(json_build_object(
            'table', q.table_no, 'a', q.player_a, 'b', coalesce(q.player_b, -1),
            'games', coalesce((SELECT json_agg(json_build_object(
                'match_id', coalesce(g.match_id, ''), 'decided', g.decided <> 0,
                'winner', coalesce(g.winner, -1), 'penalty', g.penalty <> 0) ORDER BY g.game_no)
              FROM tournament_games g
              WHERE g.tournament_id = t.tournament_id AND g.round = q.round AND g.table_no = q.table_no),
              '[]'::json)) ORDER BY q.table_no)
          FROM tournament_pairings q WHERE q.tournament_id = t.tournament_id AND q.round = r.round),
          '[]'::json)) ORDER BY r.round)
      FROM tournament_rounds r WHERE r.tournament_id = t.tournament_id), '[]'::json),
    'log', coalesce((SELECT json_agg(json_build_object(
        'seq', e.seq, 'at_ms', e.at_ms, 'actor', e.actor, 'act', e.act, 'round', e.round,
        'player', coalesce(e.player, -1), 'note', e.note) ORDER BY e.seq)
      FROM tournament_log e WHERE e.tournament_id = t.tournament_id), '[]'::json),
    'server', json_build_object(
      'spectator_delay', coalesce(o.spectator_delay, 0),
      'auto_advance', coalesce(o.auto_advance, 0) <> 0))::text
FROM tournaments t LEFT JOIN tournament_server_options o ON o.tournament_id = t.tournament_id;

-- The matches a tournament's games name (the listing's tournament filter); a
-- match plays a game of one tournament at most.
CREATE TABLE tournament_matches (
  tournament_id TEXT NOT NULL,
  match_id      TEXT NOT NULL REFERENCES matches (match_id),
  PRIMARY KEY (tournament_id, match_id)
);
CREATE UNIQUE INDEX tournament_matches_match ON tournament_matches (match_id);
INSERT INTO tournament_matches (tournament_id, match_id)
SELECT DISTINCT tournament_id, match_id FROM tournament_games WHERE match_id IS NOT NULL;

DROP TABLE tournament_games;
DROP TABLE tournament_pairings;
DROP TABLE tournament_rounds;
DROP TABLE tournament_log;
DROP TABLE tournament_server_options;
DROP TABLE tournament_players;
DROP TABLE tournaments;
ALTER TABLE tournament_records RENAME TO tournaments;
ALTER TABLE tournaments RENAME CONSTRAINT tournament_records_pkey TO tournaments_pkey;
CREATE INDEX tournaments_created ON tournaments (created_ms);
