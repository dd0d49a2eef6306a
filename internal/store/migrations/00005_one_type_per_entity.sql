-- +goose Up
-- Every field of a catalog entry is a column now, named as its JSON field
-- in snake_case, so the store scans whole entries (columns.go). The mirror
-- is derived from content/: emptying content_hash makes the next sync
-- rewrite every row, filling the new columns.

ALTER TABLE circulars ADD COLUMN title_is_descriptive INTEGER NOT NULL DEFAULT 0;
ALTER TABLE circulars ADD COLUMN effective_date TEXT;
ALTER TABLE circulars ADD COLUMN source_url TEXT NOT NULL DEFAULT '';
ALTER TABLE circulars ADD COLUMN additional_source_urls TEXT NOT NULL DEFAULT '[]';
-- entity_impact holds a JSON list like every list column, replacing both
-- its 'PSP=high,Issuer=low' form and the circular_entity_impact table,
-- which only the impact counts read (they are computed in Go now).
UPDATE circulars SET entity_impact = '[]', content_hash = '';
DROP TABLE circular_entity_impact;

ALTER TABLE news ADD COLUMN circular TEXT NOT NULL DEFAULT '';
UPDATE news SET content_hash = '';

ALTER TABLE fintech_companies ADD COLUMN source_url TEXT NOT NULL DEFAULT '';
ALTER TABLE fintech_companies ADD COLUMN leader TEXT NOT NULL DEFAULT '';
ALTER TABLE fintech_companies ADD COLUMN leader_group TEXT NOT NULL DEFAULT '';
ALTER TABLE fintech_companies ADD COLUMN leader_is_ceo INTEGER NOT NULL DEFAULT 0;
UPDATE fintech_companies SET content_hash = '';

ALTER TABLE pii_regulations ADD COLUMN source_url TEXT NOT NULL DEFAULT '';
UPDATE pii_regulations SET content_hash = '';

ALTER TABLE payment_networks ADD COLUMN founded TEXT NOT NULL DEFAULT '';
ALTER TABLE payment_networks ADD COLUMN headquarters TEXT NOT NULL DEFAULT '';
ALTER TABLE payment_networks ADD COLUMN source_url TEXT NOT NULL DEFAULT '';
ALTER TABLE payment_networks ADD COLUMN profile TEXT NOT NULL DEFAULT '';
UPDATE payment_networks SET content_hash = '';

ALTER TABLE sibos_events ADD COLUMN source_url TEXT NOT NULL DEFAULT '';
UPDATE sibos_events SET content_hash = '';

-- Impact tracking records (impact.Record), computed by each sync from the
-- catalog with the same rule the generator's page uses. They replace the
-- compliance scores, whose hand-set values nothing could set.
DROP TABLE compliance_scores;
CREATE TABLE impact_records (
    id                  TEXT PRIMARY KEY,
    circular_id         TEXT NOT NULL DEFAULT '', -- the newest circular naming the type; '' if none
    entity_type         TEXT NOT NULL UNIQUE,
    name                TEXT NOT NULL,
    compliance_score    INTEGER NOT NULL CHECK (compliance_score BETWEEN 0 AND 100),
    band                TEXT NOT NULL CHECK (band IN ('good', 'warning', 'poor')),
    high_impact_count   INTEGER NOT NULL DEFAULT 0,
    medium_impact_count INTEGER NOT NULL DEFAULT 0,
    low_impact_count    INTEGER NOT NULL DEFAULT 0,
    updated_at          TEXT NOT NULL,             -- when the record's values last changed
    position            INTEGER NOT NULL,          -- the order of catalog.EntityTypes
    content_hash        TEXT NOT NULL
);

-- Site-wide visitor counters nothing reads or writes.
DROP TABLE website_stats;

-- +goose Down
CREATE TABLE website_stats (
    id              TEXT PRIMARY KEY,
    total_visitors  INTEGER NOT NULL DEFAULT 50000,
    unique_visitors INTEGER NOT NULL DEFAULT 0,
    page_views      INTEGER NOT NULL DEFAULT 0,
    last_updated    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO website_stats (id) VALUES ('00000000-0000-4000-8000-000000000001');

DROP TABLE impact_records;
CREATE TABLE compliance_scores (
    id          TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL UNIQUE,
    position    INTEGER NOT NULL,
    score       INTEGER NOT NULL CHECK (score BETWEEN 0 AND 100),
    origin      TEXT NOT NULL CHECK (origin IN ('default', 'rule', 'set')),
    updated_at  TEXT NOT NULL
);
INSERT INTO compliance_scores (id, entity_type, position, score, origin, updated_at) VALUES
    ('7a0c5a52-3f0e-4f36-9d2b-1c1e3b8f0a01', 'PSP',        0, 100, 'default', strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    ('7a0c5a52-3f0e-4f36-9d2b-1c1e3b8f0a02', 'Issuer',     1, 100, 'default', strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    ('7a0c5a52-3f0e-4f36-9d2b-1c1e3b8f0a03', 'Aggregator', 2, 100, 'default', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));

ALTER TABLE sibos_events DROP COLUMN source_url;
ALTER TABLE payment_networks DROP COLUMN profile;
ALTER TABLE payment_networks DROP COLUMN source_url;
ALTER TABLE payment_networks DROP COLUMN headquarters;
ALTER TABLE payment_networks DROP COLUMN founded;
ALTER TABLE pii_regulations DROP COLUMN source_url;
ALTER TABLE fintech_companies DROP COLUMN leader_is_ceo;
ALTER TABLE fintech_companies DROP COLUMN leader_group;
ALTER TABLE fintech_companies DROP COLUMN leader;
ALTER TABLE fintech_companies DROP COLUMN source_url;
ALTER TABLE news DROP COLUMN circular;

-- The earlier encoding of entity impact: the next sync of the earlier code
-- rewrites rows whose hash it does not know.
CREATE TABLE circular_entity_impact (
    circular_id  TEXT NOT NULL REFERENCES circulars (id) ON DELETE CASCADE,
    entity_type  TEXT NOT NULL,
    impact_level TEXT NOT NULL CHECK (impact_level IN ('high', 'medium', 'low')),
    PRIMARY KEY (circular_id, entity_type)
);
CREATE INDEX circular_entity_impact_type_level ON circular_entity_impact (entity_type, impact_level);
UPDATE circulars SET entity_impact = '', content_hash = '';
UPDATE news SET content_hash = '';
UPDATE fintech_companies SET content_hash = '';
UPDATE pii_regulations SET content_hash = '';
UPDATE payment_networks SET content_hash = '';
UPDATE sibos_events SET content_hash = '';
ALTER TABLE circulars DROP COLUMN additional_source_urls;
ALTER TABLE circulars DROP COLUMN source_url;
ALTER TABLE circulars DROP COLUMN effective_date;
ALTER TABLE circulars DROP COLUMN title_is_descriptive;
