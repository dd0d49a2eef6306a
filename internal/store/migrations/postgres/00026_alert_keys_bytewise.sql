-- +goose Up
-- The alerts' keys and indexed text columns order bytes, as SQLite's do
-- and as every other table's here do: 00022 left them in the database's
-- default collation, which in a database with a locale (en_US, say,
-- which ignores punctuation) orders e-mail addresses and ids otherwise
-- than SQLite (the bouncing addresses, ORDER BY email_key) and compares
-- them more slowly. Found by TestSchema_SameInBothDialects. The tables'
-- rows stay; their indexes are rebuilt.
ALTER TABLE alerts
    ALTER COLUMN id TYPE TEXT COLLATE "C",
    ALTER COLUMN user_id TYPE TEXT COLLATE "C",
    ALTER COLUMN feed_token TYPE TEXT COLLATE "C";
ALTER TABLE alert_arrivals ALTER COLUMN circular_id TYPE TEXT COLLATE "C";
ALTER TABLE alert_deliveries
    ALTER COLUMN alert_id TYPE TEXT COLLATE "C",
    ALTER COLUMN circular_id TYPE TEXT COLLATE "C",
    ALTER COLUMN send_id TYPE TEXT COLLATE "C";
ALTER TABLE alert_sends
    ALTER COLUMN id TYPE TEXT COLLATE "C",
    ALTER COLUMN alert_id TYPE TEXT COLLATE "C";
ALTER TABLE alert_addresses ALTER COLUMN email_key TYPE TEXT COLLATE "C";
ALTER TABLE alert_runs ALTER COLUMN run_key TYPE TEXT COLLATE "C";

-- +goose Down
ALTER TABLE alert_runs ALTER COLUMN run_key TYPE TEXT COLLATE "default";
ALTER TABLE alert_addresses ALTER COLUMN email_key TYPE TEXT COLLATE "default";
ALTER TABLE alert_sends
    ALTER COLUMN alert_id TYPE TEXT COLLATE "default",
    ALTER COLUMN id TYPE TEXT COLLATE "default";
ALTER TABLE alert_deliveries
    ALTER COLUMN send_id TYPE TEXT COLLATE "default",
    ALTER COLUMN circular_id TYPE TEXT COLLATE "default",
    ALTER COLUMN alert_id TYPE TEXT COLLATE "default";
ALTER TABLE alert_arrivals ALTER COLUMN circular_id TYPE TEXT COLLATE "default";
ALTER TABLE alerts
    ALTER COLUMN feed_token TYPE TEXT COLLATE "default",
    ALTER COLUMN user_id TYPE TEXT COLLATE "default",
    ALTER COLUMN id TYPE TEXT COLLATE "default";
