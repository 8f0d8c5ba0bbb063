-- 0009: a match's own card definitions (R15 mutation league; docs/persistence.md,
-- "A match's own cards"). A JSON array of cards in the catalogue's format, the
-- definitions the match was played with, so that its log replays whatever
-- the shipped catalogue becomes; '' (every match before, and every match
-- played with the catalogue's cards) means the catalogue.
ALTER TABLE matches ADD COLUMN cards_json TEXT NOT NULL DEFAULT '';
