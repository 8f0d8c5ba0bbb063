-- 0012 (PostgreSQL dialect of ../0012_accounts.sql): player accounts and
-- their sessions (server/persist/account_store.hpp), one set for every node
-- of a cluster. A name is unique ignoring ASCII case, as SQLite's NOCASE
-- and the memory store compare: the index folds A-Z alone (translate(), not
-- lower(), whose folding of other letters follows the database's locale;
-- names may be any UTF-8 the join rules allow). account_id is
-- an identity: never reused. The store never sees a password or a session
-- token: password_hash is libsodium's crypto_pwhash_str text ('' for a
-- guest or a deleted account), token_hash the token's SHA-256 hex. Times
-- are milliseconds since the Unix epoch (UTC), on the account service's
-- clock.
CREATE TABLE accounts (
  account_id    BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name          TEXT    NOT NULL,
  password_hash TEXT    NOT NULL DEFAULT '',
  guest         INTEGER NOT NULL DEFAULT 0 CHECK (guest IN (0, 1)),
  disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  deleted       INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),  -- renamed "deleted player <account_id>"
  created_ms    BIGINT  NOT NULL
);
CREATE UNIQUE INDEX accounts_name ON accounts (translate(name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'));

-- One row a signed-in client: the session_id names it (to revoke it), the
-- token's hash finds it; used, its last_used_ms moves on; idle too long, it
-- is deleted.
CREATE TABLE account_sessions (
  session_id   TEXT    NOT NULL PRIMARY KEY,         -- 16 lowercase hex
  token_hash   TEXT    NOT NULL UNIQUE,
  account_id   BIGINT  NOT NULL REFERENCES accounts (account_id),
  created_ms   BIGINT  NOT NULL,
  last_used_ms BIGINT  NOT NULL,
  remote       TEXT    NOT NULL DEFAULT ''           -- the client address it was created from
);
CREATE INDEX account_sessions_account ON account_sessions (account_id);
