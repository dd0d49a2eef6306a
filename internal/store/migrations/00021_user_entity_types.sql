-- +goose Up
-- The entity types a user's business is (catalog.EntityTypes, a JSON
-- list like the other preferences): what alerts, obligations and impact
-- are judged for. Existing users start with none chosen.
ALTER TABLE user_preferences ADD COLUMN entity_types TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE user_preferences DROP COLUMN entity_types;
