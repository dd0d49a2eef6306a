-- +goose Up
-- Search holds the Master Directions' provisions in force too (in
-- memory, like the circulars, internal/store/search_provisions.go). It is
-- read from provision_spans, and read again when provisions is not the
-- stamp it was read at: the search_version of the last sync that changed
-- a direction or a provision's texts. Which texts are in force is the
-- searching instance's to say each day (a version may take effect after
-- the sync that brought it), so nothing here depends on the day.
ALTER TABLE search_version ADD COLUMN provisions INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE search_version DROP COLUMN provisions;
