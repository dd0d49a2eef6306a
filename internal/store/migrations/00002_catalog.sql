-- +goose Up
-- A mirror of the curated content (content/*.md, loaded by internal/catalog)
-- that the API queries. SyncCatalog owns these tables: it inserts, updates
-- and deletes rows so they equal the catalog. Ids are the catalog's stable
-- path-derived UUIDs. content_hash is a hash of the entry as loaded, so a
-- sync rewrites only entries that changed. Lists of text are JSON arrays.
-- Dates are 'YYYY-MM-DD' text (calendar dates, compared as text).

CREATE TABLE circulars (
    id              TEXT PRIMARY KEY,
    slug            TEXT NOT NULL UNIQUE,
    circular_number TEXT NOT NULL DEFAULT '', -- '' when the regulator's reference is not known
    title           TEXT NOT NULL,
    content         TEXT NOT NULL,
    summary         TEXT NOT NULL DEFAULT '', -- the catalog's summary; API-made ones live in circular_summaries
    source          TEXT NOT NULL,
    category        TEXT NOT NULL,
    published_date  TEXT NOT NULL,
    impact_level    TEXT NOT NULL CHECK (impact_level IN ('high', 'medium', 'low')),
    impact_rank     INTEGER NOT NULL,         -- 0 high, 1 medium, 2 low: filter and sort=impact
    official_url    TEXT NOT NULL DEFAULT '',
    -- The entity impact as lists show it, 'PSP=high,Issuer=low' in the order
    -- PSP, Issuer, Aggregator: a copy of circular_entity_impact written by
    -- the same sync, so a list needs no second query.
    entity_impact   TEXT NOT NULL DEFAULT '',
    -- Lower-cased copies for case-insensitive substring search (LIKE with
    -- escaping) and relevance counting; meta_lc joins circular number,
    -- category and source with U+001F so no match spans two fields.
    title_lc        TEXT NOT NULL,
    content_lc      TEXT NOT NULL,
    meta_lc         TEXT NOT NULL,
    content_hash    TEXT NOT NULL
);
-- One index per filter combination (source, category, impact) and order
-- (date, impact), so a filtered page reads its rows in order and stops at
-- the limit; a search then only scans the rows its filters leave.
CREATE INDEX circulars_published ON circulars (published_date DESC, slug);
CREATE INDEX circulars_impact ON circulars (impact_rank, published_date DESC, slug);
CREATE INDEX circulars_source_published ON circulars (source, published_date DESC, slug);
CREATE INDEX circulars_source_impact ON circulars (source, impact_rank, published_date DESC, slug);
CREATE INDEX circulars_category_published ON circulars (category, published_date DESC, slug);
CREATE INDEX circulars_category_impact ON circulars (category, impact_rank, published_date DESC, slug);
CREATE INDEX circulars_source_category_published ON circulars (source, category, published_date DESC, slug);
CREATE INDEX circulars_source_category_impact ON circulars (source, category, impact_rank, published_date DESC, slug);

-- Per-entity impact of a circular (impact tracking).
CREATE TABLE circular_entity_impact (
    circular_id  TEXT NOT NULL REFERENCES circulars (id) ON DELETE CASCADE,
    entity_type  TEXT NOT NULL,
    impact_level TEXT NOT NULL CHECK (impact_level IN ('high', 'medium', 'low')),
    PRIMARY KEY (circular_id, entity_type)
);
CREATE INDEX circular_entity_impact_type_level ON circular_entity_impact (entity_type, impact_level);

CREATE TABLE news (
    id             TEXT PRIMARY KEY,
    slug           TEXT NOT NULL UNIQUE,
    title          TEXT NOT NULL,
    content        TEXT NOT NULL,
    excerpt        TEXT NOT NULL,
    source         TEXT NOT NULL,
    category       TEXT NOT NULL,
    region         TEXT NOT NULL,
    published_date TEXT NOT NULL,
    source_url     TEXT NOT NULL DEFAULT '',
    search_lc      TEXT NOT NULL, -- title, excerpt, category lower-cased, joined by U+001F
    content_hash   TEXT NOT NULL
);
CREATE INDEX news_published ON news (published_date DESC, slug);
CREATE INDEX news_category_published ON news (category, published_date DESC, slug);
CREATE INDEX news_region_published ON news (region, published_date DESC, slug);

CREATE TABLE fintech_companies (
    id               TEXT PRIMARY KEY,
    slug             TEXT NOT NULL UNIQUE,
    name             TEXT NOT NULL,
    founder          TEXT NOT NULL DEFAULT '',
    description      TEXT NOT NULL,
    country          TEXT NOT NULL,
    category         TEXT NOT NULL,
    founded          INTEGER,
    headquarters     TEXT NOT NULL DEFAULT '',
    website_url      TEXT NOT NULL DEFAULT '',
    linkedin_profile TEXT NOT NULL DEFAULT '',
    x_profile        TEXT NOT NULL DEFAULT '',
    content_hash     TEXT NOT NULL
);
CREATE INDEX fintech_companies_category ON fintech_companies (category, slug);

CREATE TABLE pii_regulations (
    id                      TEXT PRIMARY KEY,
    slug                    TEXT NOT NULL UNIQUE,
    name                    TEXT NOT NULL,
    short_name              TEXT NOT NULL DEFAULT '',
    country                 TEXT NOT NULL,
    description             TEXT NOT NULL,
    status                  TEXT NOT NULL CHECK (status IN ('active', 'draft', 'proposed')),
    effective_date          TEXT,
    regulator               TEXT NOT NULL DEFAULT '',
    key_provisions          TEXT NOT NULL DEFAULT '[]',
    compliance_requirements TEXT NOT NULL DEFAULT '[]',
    official_text_url       TEXT NOT NULL DEFAULT '',
    content_hash            TEXT NOT NULL
);
CREATE INDEX pii_regulations_country_status ON pii_regulations (country, status, slug);

CREATE TABLE payment_networks (
    id           TEXT PRIMARY KEY,
    slug         TEXT NOT NULL UNIQUE,
    name         TEXT NOT NULL UNIQUE,
    full_name    TEXT NOT NULL DEFAULT '',
    type         TEXT NOT NULL DEFAULT '',
    operator     TEXT NOT NULL DEFAULT '',
    description  TEXT NOT NULL,
    guidelines   TEXT NOT NULL DEFAULT '[]',
    contact_info TEXT NOT NULL DEFAULT '',
    website_url  TEXT NOT NULL DEFAULT '',
    content_hash TEXT NOT NULL
);

CREATE TABLE sibos_events (
    id                 TEXT PRIMARY KEY,
    slug               TEXT NOT NULL UNIQUE,
    title              TEXT NOT NULL,
    year               INTEGER NOT NULL,
    theme              TEXT NOT NULL DEFAULT '',
    description        TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('upcoming', 'ongoing', 'completed')),
    start_date         TEXT,
    end_date           TEXT,
    location           TEXT NOT NULL DEFAULT '',
    venue              TEXT NOT NULL DEFAULT '',
    expected_attendees INTEGER,
    registration_open  INTEGER NOT NULL DEFAULT 0,
    key_topics         TEXT NOT NULL DEFAULT '[]',
    speakers           TEXT NOT NULL DEFAULT '[]',
    website_url        TEXT NOT NULL DEFAULT '',
    content_hash       TEXT NOT NULL
);

-- +goose Down
DROP TABLE sibos_events;
DROP TABLE payment_networks;
DROP TABLE pii_regulations;
DROP TABLE fintech_companies;
DROP TABLE news;
DROP TABLE circular_entity_impact;
DROP TABLE circulars;
