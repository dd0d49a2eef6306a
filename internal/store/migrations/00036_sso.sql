-- +goose Up
-- An organisation's single sign-on through OpenID Connect (sso.Settings,
-- issue 44): its provider and client, and the e-mail domains it names,
-- each signing people in once a DNS record proves the organisation holds
-- it (verified_at; one organisation per verified domain, while naming
-- one blocks no one). sso_used_states keeps
-- the hash of each finished sign-in's state until the flow would have
-- expired anyway, so a callback replayed is refused.
CREATE TABLE organisation_sso (
    organisation_id TEXT PRIMARY KEY REFERENCES organisations (id) ON DELETE CASCADE,
    issuer          TEXT NOT NULL,
    client_id       TEXT NOT NULL,
    client_secret   TEXT NOT NULL DEFAULT '',
    verification    TEXT NOT NULL DEFAULT '', -- the token of the domains' DNS records
    enabled         INTEGER NOT NULL DEFAULT 0,
    updated_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    updated_at      TEXT NOT NULL
);

CREATE TABLE organisation_sso_domains (
    organisation_id TEXT NOT NULL REFERENCES organisation_sso (organisation_id) ON DELETE CASCADE,
    domain          TEXT NOT NULL, -- lower case
    verified_at     TEXT,          -- when its DNS record was found
    PRIMARY KEY (organisation_id, domain)
);
-- Any organisation may name a domain; one only may prove it is theirs.
CREATE UNIQUE INDEX organisation_sso_domains_verified ON organisation_sso_domains (domain) WHERE verified_at IS NOT NULL;

CREATE TABLE sso_used_states (
    state_hash TEXT PRIMARY KEY,
    expires_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE sso_used_states;
DROP TABLE organisation_sso_domains;
DROP TABLE organisation_sso;
