-- +goose Up
-- Single sign-on settings, domains and used states, as in ../00036_sso.sql
-- (keys bytewise, "C", here).
CREATE TABLE organisation_sso (
    organisation_id TEXT COLLATE "C" PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
    issuer          TEXT NOT NULL,
    client_id       TEXT NOT NULL,
    client_secret   TEXT NOT NULL DEFAULT '',
    verification    TEXT NOT NULL DEFAULT '',
    enabled         BOOLEAN NOT NULL DEFAULT FALSE,
    updated_by      TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    updated_at      TEXT NOT NULL
);

CREATE TABLE organisation_sso_domains (
    organisation_id TEXT COLLATE "C" NOT NULL REFERENCES organisation_sso (organisation_id) ON DELETE CASCADE,
    domain          TEXT COLLATE "C" NOT NULL, -- lower case
    verified_at     TEXT,
    PRIMARY KEY (organisation_id, domain)
);
CREATE UNIQUE INDEX organisation_sso_domains_verified ON organisation_sso_domains (domain) WHERE verified_at IS NOT NULL;

CREATE TABLE sso_used_states (
    state_hash TEXT COLLATE "C" PRIMARY KEY,
    expires_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE sso_used_states;
DROP TABLE organisation_sso_domains;
DROP TABLE organisation_sso;
