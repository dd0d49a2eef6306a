-- +goose Up
-- Organisations, their members and invitations, as in
-- ../00031_organisations.sql (keys and ordered text columns bytewise,
-- "C", here).
CREATE TABLE organisations (
    id           TEXT COLLATE "C" PRIMARY KEY,
    name         TEXT NOT NULL,
    entity_types TEXT NOT NULL DEFAULT '[]',
    created_by   TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    created_at   TEXT NOT NULL
);

CREATE TABLE organisation_members (
    organisation_id TEXT COLLATE "C" NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
    user_id         TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer', 'auditor')),
    joined_at       TEXT NOT NULL,
    expires_at      TEXT,
    PRIMARY KEY (organisation_id, user_id)
);
CREATE INDEX organisation_members_user ON organisation_members (user_id);

CREATE TABLE organisation_invites (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organisation_id TEXT COLLATE "C" NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
    email           TEXT NOT NULL,
    email_key       TEXT COLLATE "C" NOT NULL,
    role            TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer', 'auditor')),
    access_ends_at  TEXT,
    token_hash      TEXT COLLATE "C" NOT NULL,
    invited_by      TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,
    accepted_at     TEXT,
    accepted_by     TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX organisation_invites_token ON organisation_invites (token_hash);
CREATE INDEX organisation_invites_email ON organisation_invites (organisation_id, email_key);

-- +goose Down
DROP TABLE organisation_invites;
DROP TABLE organisation_members;
DROP TABLE organisations;
