-- +goose Up
-- Devanagari spelling variants share a key; see ../00048_search_devanagari_variants.sql.
UPDATE circulars SET content_hash = '';
DELETE FROM search_words WHERE octet_length(word) <> char_length(word);
UPDATE search_version SET generation = md5(random()::text || clock_timestamp()::text) WHERE id = 1;

-- +goose Down
UPDATE circulars SET content_hash = '';
DELETE FROM search_words WHERE octet_length(word) <> char_length(word);
UPDATE search_version SET generation = md5(random()::text || clock_timestamp()::text) WHERE id = 1;
