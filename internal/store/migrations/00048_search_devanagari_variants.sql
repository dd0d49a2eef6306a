-- +goose Up
-- A Devanagari word's key meets its spelling variants (issue 48: the nukta
-- typed or not, chandrabindu as anusvara, candra vowels, a nasal conjunct
-- as anusvara; search.normDeva), so रिज़र्व and रिजर्व are one key. The
-- stored keys were made without that: as 00039, the next sync rewrites
-- every circular, the words outside ASCII leave search_words (the rewrite
-- adds them back with their new keys), and a new generation makes every
-- instance read its index afresh.
UPDATE circulars SET content_hash = '';
DELETE FROM search_words WHERE length(word) <> length(CAST(word AS BLOB));
UPDATE search_version SET generation = lower(hex(randomblob(16))) WHERE id = 1;

-- +goose Down
-- Nothing to restore: the next sync keys every circular again with the
-- keys of whatever binary runs it.
UPDATE circulars SET content_hash = '';
DELETE FROM search_words WHERE length(word) <> length(CAST(word AS BLOB));
UPDATE search_version SET generation = lower(hex(randomblob(16))) WHERE id = 1;
