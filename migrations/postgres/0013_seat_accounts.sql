-- 0013 (PostgreSQL dialect of ../0013_seat_accounts.sql): a seat taken by a signed-in connection (hello.account_token,
-- docs/accounts.md) is bound to its account: the player's games and
-- ratings follow the account, and the account's sessions can resume the
-- seat (after a restart or on another node too). NULL: a seat taken
-- without an account (a name typed into a join), the AI's, a house bot's.
-- No foreign key: a deleted account keeps its id (renamed "deleted player
-- N"), so the seat's id always names a row.
ALTER TABLE match_seats ADD COLUMN account_id BIGINT;
CREATE INDEX match_seats_account ON match_seats (account_id) WHERE account_id IS NOT NULL;
