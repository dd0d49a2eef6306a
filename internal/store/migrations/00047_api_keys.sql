-- +goose Up
-- An organisation's API keys (issue 47, package apikeys): the token is
-- never stored, only its SHA-256 (token_hash, looked up on each request)
-- and its first characters (prefix) for the list. A key is revoked, never
-- deleted, so the audit trail's "apikey:<id>" keeps naming it.
CREATE TABLE api_keys (
    id               TEXT PRIMARY KEY,
    organisation_id  TEXT NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    token_hash       TEXT NOT NULL UNIQUE,
    prefix           TEXT NOT NULL,
    scope            TEXT NOT NULL CHECK (scope IN ('read', 'read-write')),
    expires_at       TEXT NOT NULL,
    created_by       TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at       TEXT NOT NULL,
    last_used_at     TEXT, -- at most a minute stale (apikeys.TouchEvery)
    revoked_at       TEXT
);
CREATE INDEX api_keys_org ON api_keys (organisation_id, created_at);

-- +goose Down
DROP TABLE api_keys;
