-- 0011: a tournament is one record, as a league is (0010; docs/persistence.md,
-- "Tournaments and leagues"): one row a tournament, saved whole after every
-- change, its value a JSON document in record_json (the document of
-- server/persist/tournament_record.hpp), and beside it the matches its games
-- name. The tables of 0003 and 0005 are rewritten into that document here,
-- then dropped. finished: the tournament's stage is finished (its lease is
-- no longer wanted, docs/cluster.md). Times are milliseconds since the Unix
-- epoch (UTC); created_ms is kept from the first save.
CREATE TABLE tournament_records (
  tournament_id TEXT    NOT NULL PRIMARY KEY,
  name          TEXT    NOT NULL,
  created_ms    INTEGER NOT NULL,
  finished      INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
  record_json   TEXT    NOT NULL
);

-- No player was NULL in the tables and is -1 in the document; a game decided
-- without a match had a NULL match_id and has "". Each list in its order
-- (players by id, rounds by number, pairings by table, games by number, the
-- log by seq).
INSERT INTO tournament_records (tournament_id, name, created_ms, finished, record_json)
SELECT t.tournament_id, t.name, t.created_ms, t.stage = 'finished',
  json_object(
    'config', json_object(
      'name', t.name, 'mode', t.mode, 'format', t.format, 'swiss_rounds', t.swiss_rounds, 'best_of', t.best_of,
      'exhaustion', json(CASE WHEN t.exhaustion THEN 'true' ELSE 'false' END),
      'clock', CASE WHEN t.clock_bank_ms IS NULL THEN json('null')
                    ELSE json_object('bank_ms', t.clock_bank_ms, 'increment_ms', t.clock_increment_ms) END,
      'top_cut', t.top_cut, 'seed', t.seed),
    'players', json((SELECT json_group_array(json_object(
        'name', p.name, 'token_hash', p.token_hash, 'seed_order', p.seed_order,
        'dropped_in_round', coalesce(p.dropped_in_round, -1)))
      FROM (SELECT * FROM tournament_players WHERE tournament_id = t.tournament_id ORDER BY player) p)),
    'rounds', json((SELECT json_group_array(json_object(
        'number', r.round, 'kind', r.kind, 'attempt', r.attempt,
        'pairings', json((SELECT json_group_array(json_object(
            'table', q.table_no, 'a', q.player_a, 'b', coalesce(q.player_b, -1),
            'games', json((SELECT json_group_array(json_object(
                'match_id', coalesce(g.match_id, ''),
                'decided', json(CASE WHEN g.decided THEN 'true' ELSE 'false' END),
                'winner', coalesce(g.winner, -1),
                'penalty', json(CASE WHEN g.penalty THEN 'true' ELSE 'false' END)))
              FROM (SELECT * FROM tournament_games
                    WHERE tournament_id = t.tournament_id AND round = q.round AND table_no = q.table_no
                    ORDER BY game_no) g))))
          FROM (SELECT * FROM tournament_pairings WHERE tournament_id = t.tournament_id AND round = r.round
                ORDER BY table_no) q))))
      FROM (SELECT * FROM tournament_rounds WHERE tournament_id = t.tournament_id ORDER BY round) r)),
    'log', json((SELECT json_group_array(json_object(
        'seq', e.seq, 'at_ms', e.at_ms, 'actor', e.actor, 'act', e.act, 'round', e.round,
        'player', coalesce(e.player, -1), 'note', e.note))
      FROM (SELECT * FROM tournament_log WHERE tournament_id = t.tournament_id ORDER BY seq) e)),
    'server', json_object(
      'spectator_delay', coalesce(o.spectator_delay, 0),
      'auto_advance', json(CASE WHEN o.auto_advance THEN 'true' ELSE 'false' END)))
FROM tournaments t LEFT JOIN tournament_server_options o ON o.tournament_id = t.tournament_id;

-- The matches a tournament's games name (the listing's tournament filter); a
-- match plays a game of one tournament at most.
CREATE TABLE tournament_matches (
  tournament_id TEXT NOT NULL,
  match_id      TEXT NOT NULL REFERENCES matches (match_id),
  PRIMARY KEY (tournament_id, match_id)
) WITHOUT ROWID;
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
CREATE INDEX tournaments_created ON tournaments (created_ms);
