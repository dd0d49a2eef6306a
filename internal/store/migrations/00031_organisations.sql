-- +goose Up
-- Organisations (teams.Organisation, issue 44): a team's workspace, its
-- members with their roles (a user may belong to several organisations,
-- once each), and the invitations by e-mail that make members. An
-- invitation's link token is kept only as its SHA-256 (token_hash).
CREATE TABLE organisations (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    entity_types TEXT NOT NULL DEFAULT '[]', -- catalog.EntityTypes, a JSON list
    created_by   TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at   TEXT NOT NULL
);

CREATE TABLE organisation_members (
    organisation_id TEXT NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer', 'auditor')),
    joined_at       TEXT NOT NULL,
    expires_at      TEXT, -- an auditor's end of access
    PRIMARY KEY (organisation_id, user_id)
);
CREATE INDEX organisation_members_user ON organisation_members (user_id);

CREATE TABLE organisation_invites (
    id              TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
    email           TEXT NOT NULL,
    email_key       TEXT NOT NULL,               -- lower-cased, as users.email_key
    role            TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer', 'auditor')),
    access_ends_at  TEXT,
    token_hash      TEXT NOT NULL,
    invited_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,
    accepted_at     TEXT,
    accepted_by     TEXT REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX organisation_invites_token ON organisation_invites (token_hash);
CREATE INDEX organisation_invites_email ON organisation_invites (organisation_id, email_key);

-- +goose Down
DROP TABLE organisation_invites;
DROP TABLE organisation_members;
DROP TABLE organisations;
