-- 0002 (PostgreSQL; the same as ../0002_seat_champion.sql): the Champion module (R13) and the four-player modes (docs/persistence.md).
--
-- Each seat's Champion, a catalogue id (R13.1: a creature outside its deck,
-- picked at join and revealed when the match starts); NULL for a seat that
-- plays without one. The four-player modes need nothing else: match_seats
-- already has `team` (2v2: 0 = seats 0 and 2, 1 = seats 1 and 3; NULL in a
-- duel or free-for-all), matches.mode holds 'ffa' or '2v2', and
-- matches.options_json the new options ({"champions": bool,
-- "share_team_hands": bool}).
ALTER TABLE match_seats ADD COLUMN champion TEXT;
