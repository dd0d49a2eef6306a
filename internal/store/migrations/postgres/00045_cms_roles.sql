-- +goose Up
-- The editors' web UI's roles, as in ../00045_cms_roles.sql.
CREATE TABLE cms_roles (
    user_id    TEXT COLLATE "C" PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT COLLATE "C" NOT NULL CHECK (role IN ('editor', 'reviewer')),
    granted_at TEXT NOT NULL,
    granted_by TEXT NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE cms_roles;
