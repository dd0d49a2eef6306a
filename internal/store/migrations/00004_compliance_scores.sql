-- +goose Up
-- Compliance score per entity type (impact tracking
-- record). origin says where the score came from:
--   default  seeded here: 100, meaning "no circular counted against it yet";
--   rule     computed by SyncCatalog from the circulars (rule in impact.go);
--   set      set explicitly (SetComplianceScore); sync never overwrites it.
-- updated_at is when the record last changed: its score was computed or
-- set, or a sync changed the circulars its counts come from.
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

-- +goose Down
DROP TABLE compliance_scores;
