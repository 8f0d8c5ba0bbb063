-- 0012: player accounts and their sessions (server/persist/account_store.hpp;
-- the account service keeps them). A name is unique ignoring ASCII case
-- (NOCASE folds A-Z only); account_id is never reused (AUTOINCREMENT: an id
-- once given is never given again, not even after the highest row goes).
-- The store never sees a password or a session token: password_hash is
-- libsodium's crypto_pwhash_str text ('' for a guest or a deleted account),
-- token_hash the token's SHA-256 hex. Times are milliseconds since the Unix
-- epoch (UTC), on the account service's clock.
CREATE TABLE accounts (
  account_id    INTEGER PRIMARY KEY AUTOINCREMENT,
  name          TEXT    NOT NULL,
  password_hash TEXT    NOT NULL DEFAULT '',
  guest         INTEGER NOT NULL DEFAULT 0 CHECK (guest IN (0, 1)),
  disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  deleted       INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),  -- renamed "deleted player <account_id>"
  created_ms    INTEGER NOT NULL
);
CREATE UNIQUE INDEX accounts_name ON accounts (name COLLATE NOCASE);

-- One row a signed-in client: the session_id names it (to revoke it), the
-- token's hash finds it; used, its last_used_ms moves on; idle too long, it
-- is deleted.
CREATE TABLE account_sessions (
  session_id   TEXT    NOT NULL PRIMARY KEY,         -- 16 lowercase hex
  token_hash   TEXT    NOT NULL UNIQUE,
  account_id   INTEGER NOT NULL REFERENCES accounts (account_id),
  created_ms   INTEGER NOT NULL,
  last_used_ms INTEGER NOT NULL,
  remote       TEXT    NOT NULL DEFAULT ''           -- the client address it was created from
);
CREATE INDEX account_sessions_account ON account_sessions (account_id);
