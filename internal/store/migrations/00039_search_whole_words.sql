-- +goose Up
-- Search reads a word of any script whole (internal/words): a Devanagari
-- word with its vowel signs is one key, where the tokenizer before cut it
-- at each sign (भारतीय was भ, रत and य). The stored keys were made that
-- way, and a circular is indexed again only when a sync rewrites its row,
-- so the next sync rewrites every one (as 00018 did). Words outside ASCII
-- leave search_words (the rewrite adds back the whole ones; an ASCII word
-- keys as before), and a new generation makes every instance read its
-- index afresh instead of applying the rows stamped since its version: a
-- deleted word is no stamped row.
UPDATE circulars SET content_hash = '';
DELETE FROM search_words WHERE length(word) <> length(CAST(word AS BLOB));
UPDATE search_version SET generation = lower(hex(randomblob(16))) WHERE id = 1;

-- +goose Down
-- Nothing to restore: the next sync keys every circular again with the
-- tokenizer of whatever binary runs it.
UPDATE circulars SET content_hash = '';
DELETE FROM search_words WHERE length(word) <> length(CAST(word AS BLOB));
UPDATE search_version SET generation = lower(hex(randomblob(16))) WHERE id = 1;
