-- +goose Up
-- A circular's text is stored once: the lists' substring search
-- lower-cases it as it reads (text_lower, store.go) instead of keeping a
-- lower-cased copy, which doubled what a sync of a large archive writes.
ALTER TABLE circulars DROP COLUMN content_lc;

-- +goose Down
ALTER TABLE circulars ADD COLUMN content_lc TEXT NOT NULL DEFAULT '';
UPDATE circulars SET content_lc = lower(content), content_hash = '';
