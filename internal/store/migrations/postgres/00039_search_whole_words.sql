-- +goose Up
-- Search reads a word of any script whole; see ../00039_search_whole_words.sql.
UPDATE circulars SET content_hash = '';
DELETE FROM search_words WHERE octet_length(word) <> char_length(word);
UPDATE search_version SET generation = md5(random()::text || clock_timestamp()::text) WHERE id = 1;

-- +goose Down
UPDATE circulars SET content_hash = '';
DELETE FROM search_words WHERE octet_length(word) <> char_length(word);
UPDATE search_version SET generation = md5(random()::text || clock_timestamp()::text) WHERE id = 1;
