-- 0009 (PostgreSQL; the same as ../0009_match_cards.sql): a match's own card
-- definitions (R15 mutation league), a JSON array of cards in the catalogue's
-- format; '' means the catalogue's cards.
ALTER TABLE matches ADD COLUMN cards_json TEXT NOT NULL DEFAULT '';
