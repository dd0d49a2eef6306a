-- +goose Up
-- The newsletter (newsletter.Subscriber), filled by the API, never by a
-- catalog sync. email_key is the lower-cased address (lower-cased in Go):
-- unique, so an address subscribes once whatever its case. An
-- unsubscribed address stays with is_active 0, so signing up again
-- re-activates it.
CREATE TABLE newsletter_subscribers (
    id            TEXT PRIMARY KEY,            -- a random UUID
    email         TEXT NOT NULL,
    email_key     TEXT NOT NULL UNIQUE,
    first_name    TEXT NOT NULL DEFAULT '',
    last_name     TEXT NOT NULL DEFAULT '',
    subscribed_at TEXT NOT NULL,               -- RFC 3339, UTC; the last (re)subscription
    is_active     INTEGER NOT NULL DEFAULT 1,
    preferences   TEXT NOT NULL DEFAULT '[]',  -- JSON list of topic ids
    source        TEXT NOT NULL CHECK (source IN ('website', 'dashboard', 'newsletter-page'))
);
CREATE INDEX newsletter_subscribers_subscribed_at ON newsletter_subscribers (subscribed_at DESC, id);

-- One row per subscriber and digest month: claimed ('sending') before the
-- message leaves, so a re-run or a second process never sends it twice.
CREATE TABLE newsletter_deliveries (
    subscriber_id TEXT NOT NULL REFERENCES newsletter_subscribers (id) ON DELETE CASCADE,
    month         TEXT NOT NULL,               -- YYYY-MM
    status        TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    message_id    TEXT NOT NULL,
    error         TEXT NOT NULL DEFAULT '',
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (subscriber_id, month)
);

-- The scheduled digest's lock: one row per month, held by one process
-- until lease_until (a crashed holder's lease runs out).
CREATE TABLE newsletter_runs (
    month       TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    lease_until TEXT NOT NULL,
    finished_at TEXT
);

-- +goose Down
DROP TABLE newsletter_runs;
DROP TABLE newsletter_deliveries;
DROP TABLE newsletter_subscribers;
