-- +goose Up
-- An organisation's API keys, as in ../00047_api_keys.sql.
CREATE TABLE api_keys (
    id               TEXT COLLATE "C" PRIMARY KEY,
    organisation_id  TEXT COLLATE "C" NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
    name             TEXT NOT NULL,
    token_hash       TEXT COLLATE "C" NOT NULL UNIQUE,
    prefix           TEXT NOT NULL,
    scope            TEXT NOT NULL CHECK (scope IN ('read', 'read-write')),
    expires_at       TEXT NOT NULL,
    created_by       TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    created_at       TEXT COLLATE "C" NOT NULL,
    last_used_at     TEXT,
    revoked_at       TEXT
);
CREATE INDEX api_keys_org ON api_keys (organisation_id, created_at);

-- +goose Down
DROP TABLE api_keys;
