-- +goose Up
-- The editors' web UI's roles (issue 46): an editor saves drafts, a
-- reviewer also publishes (never their own change). Separate from
-- users.role (admin/user: the site's own pages) because the two are
-- granted apart: an admin need not edit content, an editor need not
-- administer. Given by the operator only (regpulse users cms-role);
-- granted_by is that tool's name for the operator, or the granting
-- account's id when one day the API grants them. A user without a row
-- has no CMS role.
CREATE TABLE cms_roles (
    user_id    TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('editor', 'reviewer')),
    granted_at TEXT NOT NULL,
    granted_by TEXT NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE cms_roles;
