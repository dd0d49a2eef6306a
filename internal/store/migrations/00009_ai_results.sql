-- +goose Up
-- What made each stored summary (catalog.GeneratedSummary): pages label a
-- generated summary with its provider, so the rows say which one.
ALTER TABLE circular_summaries ADD COLUMN provider TEXT NOT NULL DEFAULT '';
ALTER TABLE circular_summaries ADD COLUMN model TEXT NOT NULL DEFAULT '';

-- Impact analyses the API makes (POST /api/circulars/{id}/impact), one per
-- circular and entity type (catalog.ImpactAnalysis, a column per field).
-- Like the summaries, they are not content: sync never touches them and
-- there is no foreign key, so they outlive a circular's edits and removal.
CREATE TABLE circular_impact_analyses (
    circular_id  TEXT NOT NULL,
    entity_type  TEXT NOT NULL,
    impact_level TEXT NOT NULL CHECK (impact_level IN ('high', 'medium', 'low')),
    reasons      TEXT NOT NULL DEFAULT '[]',
    provider     TEXT NOT NULL,
    model        TEXT NOT NULL,
    generated_at TEXT NOT NULL,
    PRIMARY KEY (circular_id, entity_type)
);

-- +goose Down
DROP TABLE circular_impact_analyses;
ALTER TABLE circular_summaries DROP COLUMN model;
ALTER TABLE circular_summaries DROP COLUMN provider;
