-- +goose Up
-- The entity types a user's business is, as in
-- ../00021_user_entity_types.sql.
ALTER TABLE user_preferences ADD COLUMN entity_types TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE user_preferences DROP COLUMN entity_types;
