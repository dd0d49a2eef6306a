-- +goose Up
-- The audit trail (issue 44, internal/audit): one row per state-changing
-- call of an organisation, hash-chained per organisation (seq 1, 2, 3
-- ..., prev_hash the previous row's hash). Texts are stored byte for
-- byte as hashed. org_id will reference organisations (id) once that
-- table is on main; until then it is a plain text id.
-- Keyed by its place in its organisation's chain: a second row with the
-- same number is refused, so two writers can never fork a chain, and a
-- chain is read in order from one run of the table (WITHOUT ROWID: the
-- rows are stored in key order, no lookup from an index per row).
CREATE TABLE audit_log (
    id           TEXT NOT NULL UNIQUE,
    org_id       TEXT NOT NULL,
    seq          INTEGER NOT NULL CHECK (seq > 0),
    actor_id     TEXT NOT NULL DEFAULT '',
    action       TEXT NOT NULL,
    subject_type TEXT NOT NULL DEFAULT '',
    subject_id   TEXT NOT NULL DEFAULT '',
    before_json  TEXT NOT NULL,
    after_json   TEXT NOT NULL,
    at           TEXT NOT NULL,
    request_id   TEXT NOT NULL DEFAULT '',
    client_addr  TEXT NOT NULL DEFAULT '',
    prev_hash    TEXT NOT NULL,
    hash         TEXT NOT NULL,
    PRIMARY KEY (org_id, seq)
) WITHOUT ROWID;
CREATE INDEX audit_log_subject ON audit_log (org_id, subject_type, subject_id, seq);

-- Append-only, whatever SQL runs: no row is changed or removed.
-- +goose StatementBegin
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: UPDATE refused');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: DELETE refused');
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE audit_log;
