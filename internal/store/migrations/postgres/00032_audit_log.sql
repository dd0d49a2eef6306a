-- +goose Up
-- The audit trail, as in ../00032_audit_log.sql (ids and ordered text
-- bytewise, "C", here). TEXT, not jsonb: the JSON is kept byte for byte
-- as it was hashed. org_id will reference organisations (id) once that
-- table is on main.
CREATE TABLE audit_log (
    id           TEXT COLLATE "C" NOT NULL UNIQUE,
    org_id       TEXT COLLATE "C" NOT NULL,
    seq          BIGINT NOT NULL CHECK (seq > 0),
    actor_id     TEXT NOT NULL DEFAULT '',
    action       TEXT NOT NULL,
    subject_type TEXT COLLATE "C" NOT NULL DEFAULT '',
    subject_id   TEXT COLLATE "C" NOT NULL DEFAULT '',
    before_json  TEXT NOT NULL,
    after_json   TEXT NOT NULL,
    at           TEXT NOT NULL,
    request_id   TEXT NOT NULL DEFAULT '',
    client_addr  TEXT NOT NULL DEFAULT '',
    prev_hash    TEXT NOT NULL,
    hash         TEXT NOT NULL,
    PRIMARY KEY (org_id, seq)
);
CREATE INDEX audit_log_subject ON audit_log (org_id, subject_type, subject_id, seq);

-- Append-only, whatever SQL runs: no row is changed or removed, and the
-- table is not truncated.
-- +goose StatementBegin
CREATE FUNCTION audit_log_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_refuse();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse();

-- +goose Down
DROP TABLE audit_log;
DROP FUNCTION audit_log_refuse();
