-- +goose Up
-- Nothing to do: SQLite orders text bytewise (BINARY) everywhere. In
-- PostgreSQL the alerts' keys and indexed columns get the "C" collation
-- that orders them so too (postgres/00026_alert_keys_bytewise.sql).

-- +goose Down
