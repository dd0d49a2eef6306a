-- +goose Up
-- Accounts (auth.User) and their preferences (auth.Preferences). Filled by
-- the API and the operator's command line, never by a catalog sync.
-- username_key and email_key are the lower-cased username and e-mail
-- (lower-cased in Go, for all of Unicode): unique, so neither can be taken
-- twice in another case, and what sign-in looks a username up by.
CREATE TABLE users (
    id            TEXT PRIMARY KEY,           -- a random UUID
    username      TEXT NOT NULL,
    username_key  TEXT NOT NULL UNIQUE,
    email         TEXT NOT NULL,
    email_key     TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,              -- argon2id, PHC format; never the password
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    role          TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
    is_verified   INTEGER NOT NULL DEFAULT 0,
    token_version INTEGER NOT NULL DEFAULT 0, -- raised to revoke every token issued before
    last_login_at TEXT,                       -- RFC 3339, UTC; NULL until the first sign-in
    created_at    TEXT NOT NULL
);
CREATE INDEX users_last_login_at ON users (last_login_at);

CREATE TABLE user_preferences (
    id                      TEXT PRIMARY KEY,
    user_id                 TEXT NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    circular_sources        TEXT NOT NULL DEFAULT '[]', -- JSON lists
    impact_levels           TEXT NOT NULL DEFAULT '[]',
    categories              TEXT NOT NULL DEFAULT '[]',
    email_notifications     INTEGER NOT NULL DEFAULT 1,
    newsletter_subscription INTEGER NOT NULL DEFAULT 0,
    updated_at              TEXT NOT NULL
);

-- +goose Down
DROP TABLE user_preferences;
DROP TABLE users;
