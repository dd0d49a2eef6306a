-- +goose Up
-- The PostgreSQL schema: the same tables and columns as the SQLite
-- migrations (../*.sql) as of 00011, so the store's queries run on both.
-- Differences, kept few on purpose (internal/store/dialect.go):
--   * text columns that are compared or sorted use the "C" collation, so
--     orders and prefix ranges are byte orders as in SQLite, whatever the
--     database's locale;
--   * flags are boolean (the queries write TRUE and FALSE);
--   * the full-text index is a weighted tsvector (circular_search), and
--     the lists' substring search has pg_trgm indexes.
-- A schema change is a new migration here and one in ../ with the same
-- number (TestMigrations_SameVersions); 00002 to 00011 are empty here.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE circulars (
    id                     TEXT COLLATE "C" PRIMARY KEY,
    rid                    BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE, -- SQLite's rowid: the search index's key
    slug                   TEXT COLLATE "C" NOT NULL UNIQUE,
    circular_number        TEXT NOT NULL DEFAULT '',
    title                  TEXT NOT NULL,
    content                TEXT NOT NULL,
    summary                TEXT NOT NULL DEFAULT '',
    source                 TEXT COLLATE "C" NOT NULL,
    category               TEXT COLLATE "C" NOT NULL,
    published_date         TEXT COLLATE "C" NOT NULL,
    impact_level           TEXT NOT NULL CHECK (impact_level IN ('high', 'medium', 'low')),
    impact_rank            INTEGER NOT NULL,
    official_url           TEXT NOT NULL DEFAULT '',
    entity_impact          TEXT NOT NULL DEFAULT '[]',
    title_lc               TEXT COLLATE "C" NOT NULL,
    content_lc             TEXT COLLATE "C" NOT NULL,
    meta_lc                TEXT COLLATE "C" NOT NULL,
    content_hash           TEXT NOT NULL,
    title_is_descriptive   BOOLEAN NOT NULL DEFAULT FALSE,
    effective_date         TEXT COLLATE "C",
    source_url             TEXT NOT NULL DEFAULT '',
    additional_source_urls TEXT NOT NULL DEFAULT '[]',
    document_type          TEXT COLLATE "C" NOT NULL DEFAULT 'circular',
    compliance_dates       TEXT NOT NULL DEFAULT '[]',
    supersedes             TEXT NOT NULL DEFAULT '[]',
    superseded_by          TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX circulars_published ON circulars (published_date DESC, slug);
CREATE INDEX circulars_impact ON circulars (impact_rank, published_date DESC, slug);
CREATE INDEX circulars_source_published ON circulars (source, published_date DESC, slug);
CREATE INDEX circulars_source_impact ON circulars (source, impact_rank, published_date DESC, slug);
CREATE INDEX circulars_category_published ON circulars (category, published_date DESC, slug);
CREATE INDEX circulars_category_impact ON circulars (category, impact_rank, published_date DESC, slug);
CREATE INDEX circulars_source_category_published ON circulars (source, category, published_date DESC, slug);
CREATE INDEX circulars_source_category_impact ON circulars (source, category, impact_rank, published_date DESC, slug);
CREATE INDEX circulars_document_type ON circulars (document_type);
-- The lists' search (?search=) is a substring match (LIKE '%term%') of the
-- lower-cased copies: trigram indexes serve it, circular numbers included.
CREATE INDEX circulars_title_trgm ON circulars USING gin (title_lc gin_trgm_ops);
CREATE INDEX circulars_content_trgm ON circulars USING gin (content_lc gin_trgm_ops);
CREATE INDEX circulars_meta_trgm ON circulars USING gin (meta_lc gin_trgm_ops);

CREATE TABLE news (
    id             TEXT COLLATE "C" PRIMARY KEY,
    slug           TEXT COLLATE "C" NOT NULL UNIQUE,
    title          TEXT NOT NULL,
    content        TEXT NOT NULL,
    excerpt        TEXT NOT NULL,
    source         TEXT COLLATE "C" NOT NULL,
    category       TEXT COLLATE "C" NOT NULL,
    region         TEXT COLLATE "C" NOT NULL,
    published_date TEXT COLLATE "C" NOT NULL,
    source_url     TEXT NOT NULL DEFAULT '',
    search_lc      TEXT COLLATE "C" NOT NULL,
    content_hash   TEXT NOT NULL,
    circular       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX news_published ON news (published_date DESC, slug);
CREATE INDEX news_category_published ON news (category, published_date DESC, slug);
CREATE INDEX news_region_published ON news (region, published_date DESC, slug);

CREATE TABLE fintech_companies (
    id               TEXT COLLATE "C" PRIMARY KEY,
    slug             TEXT COLLATE "C" NOT NULL UNIQUE,
    name             TEXT COLLATE "C" NOT NULL,
    founder          TEXT NOT NULL DEFAULT '',
    description      TEXT NOT NULL,
    country          TEXT COLLATE "C" NOT NULL,
    category         TEXT COLLATE "C" NOT NULL,
    founded          BIGINT,
    headquarters     TEXT NOT NULL DEFAULT '',
    website_url      TEXT NOT NULL DEFAULT '',
    linkedin_profile TEXT NOT NULL DEFAULT '',
    x_profile        TEXT NOT NULL DEFAULT '',
    content_hash     TEXT NOT NULL,
    source_url       TEXT NOT NULL DEFAULT '',
    leader           TEXT NOT NULL DEFAULT '',
    leader_group     TEXT NOT NULL DEFAULT '',
    leader_is_ceo    BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX fintech_companies_category ON fintech_companies (category, slug);

CREATE TABLE pii_regulations (
    id                      TEXT COLLATE "C" PRIMARY KEY,
    slug                    TEXT COLLATE "C" NOT NULL UNIQUE,
    name                    TEXT COLLATE "C" NOT NULL,
    short_name              TEXT NOT NULL DEFAULT '',
    country                 TEXT COLLATE "C" NOT NULL,
    description             TEXT NOT NULL,
    status                  TEXT COLLATE "C" NOT NULL CHECK (status IN ('active', 'draft', 'proposed')),
    effective_date          TEXT COLLATE "C",
    regulator               TEXT NOT NULL DEFAULT '',
    key_provisions          TEXT NOT NULL DEFAULT '[]',
    compliance_requirements TEXT NOT NULL DEFAULT '[]',
    official_text_url       TEXT NOT NULL DEFAULT '',
    content_hash            TEXT NOT NULL,
    source_url              TEXT NOT NULL DEFAULT ''
);
CREATE INDEX pii_regulations_country_status ON pii_regulations (country, status, slug);

CREATE TABLE payment_networks (
    id           TEXT COLLATE "C" PRIMARY KEY,
    slug         TEXT COLLATE "C" NOT NULL UNIQUE,
    name         TEXT COLLATE "C" NOT NULL UNIQUE,
    full_name    TEXT NOT NULL DEFAULT '',
    type         TEXT NOT NULL DEFAULT '',
    operator     TEXT NOT NULL DEFAULT '',
    description  TEXT NOT NULL,
    guidelines   TEXT NOT NULL DEFAULT '[]',
    contact_info TEXT NOT NULL DEFAULT '',
    website_url  TEXT NOT NULL DEFAULT '',
    content_hash TEXT NOT NULL,
    founded      TEXT NOT NULL DEFAULT '',
    headquarters TEXT NOT NULL DEFAULT '',
    source_url   TEXT NOT NULL DEFAULT '',
    profile      TEXT NOT NULL DEFAULT ''
);

CREATE TABLE sibos_events (
    id                 TEXT COLLATE "C" PRIMARY KEY,
    slug               TEXT COLLATE "C" NOT NULL UNIQUE,
    title              TEXT NOT NULL,
    year               BIGINT NOT NULL,
    theme              TEXT NOT NULL DEFAULT '',
    description        TEXT NOT NULL,
    status             TEXT COLLATE "C" NOT NULL CHECK (status IN ('upcoming', 'ongoing', 'completed')),
    start_date         TEXT COLLATE "C",
    end_date           TEXT COLLATE "C",
    location           TEXT NOT NULL DEFAULT '',
    venue              TEXT NOT NULL DEFAULT '',
    expected_attendees BIGINT,
    registration_open  BOOLEAN NOT NULL DEFAULT FALSE,
    key_topics         TEXT NOT NULL DEFAULT '[]',
    speakers           TEXT NOT NULL DEFAULT '[]',
    website_url        TEXT NOT NULL DEFAULT '',
    content_hash       TEXT NOT NULL,
    source_url         TEXT NOT NULL DEFAULT ''
);

CREATE TABLE circular_summaries (
    circular_id TEXT COLLATE "C" PRIMARY KEY,
    summary     TEXT NOT NULL,
    created_at  TEXT COLLATE "C" NOT NULL,
    updated_at  TEXT COLLATE "C" NOT NULL,
    provider    TEXT NOT NULL DEFAULT '',
    model       TEXT NOT NULL DEFAULT ''
);

CREATE TABLE impact_records (
    id                  TEXT COLLATE "C" PRIMARY KEY,
    circular_id         TEXT NOT NULL DEFAULT '',
    entity_type         TEXT COLLATE "C" NOT NULL UNIQUE,
    name                TEXT NOT NULL,
    compliance_score    BIGINT NOT NULL CHECK (compliance_score BETWEEN 0 AND 100),
    band                TEXT NOT NULL CHECK (band IN ('good', 'warning', 'poor')),
    high_impact_count   BIGINT NOT NULL DEFAULT 0,
    medium_impact_count BIGINT NOT NULL DEFAULT 0,
    low_impact_count    BIGINT NOT NULL DEFAULT 0,
    updated_at          TEXT COLLATE "C" NOT NULL,
    position            BIGINT NOT NULL,
    content_hash        TEXT NOT NULL
);

CREATE TABLE circular_impact_analyses (
    circular_id  TEXT COLLATE "C" NOT NULL,
    entity_type  TEXT COLLATE "C" NOT NULL,
    impact_level TEXT NOT NULL CHECK (impact_level IN ('high', 'medium', 'low')),
    reasons      TEXT NOT NULL DEFAULT '[]',
    provider     TEXT NOT NULL,
    model        TEXT NOT NULL,
    generated_at TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (circular_id, entity_type)
);

CREATE TABLE users (
    id            TEXT COLLATE "C" PRIMARY KEY,
    username      TEXT NOT NULL,
    username_key  TEXT COLLATE "C" NOT NULL UNIQUE,
    email         TEXT NOT NULL,
    email_key     TEXT COLLATE "C" NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    role          TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
    is_verified   BOOLEAN NOT NULL DEFAULT FALSE,
    token_version BIGINT NOT NULL DEFAULT 0,
    last_login_at TEXT COLLATE "C",
    created_at    TEXT COLLATE "C" NOT NULL
);
CREATE INDEX users_last_login_at ON users (last_login_at);

CREATE TABLE user_preferences (
    id                      TEXT COLLATE "C" PRIMARY KEY,
    user_id                 TEXT COLLATE "C" NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    circular_sources        TEXT NOT NULL DEFAULT '[]',
    impact_levels           TEXT NOT NULL DEFAULT '[]',
    categories              TEXT NOT NULL DEFAULT '[]',
    email_notifications     BOOLEAN NOT NULL DEFAULT TRUE,
    newsletter_subscription BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at              TEXT COLLATE "C" NOT NULL
);

-- The full-text index of circulars (SQLite: the FTS5 table circular_search
-- and circular_search_rows). doc is a tsvector written by the store from
-- search.Index's keys, weighted A number, B title, C summary, D content;
-- the narrow columns are what ranking, filters and facets read.
CREATE TABLE circular_search (
    rid            BIGINT PRIMARY KEY REFERENCES circulars (rid) ON DELETE CASCADE,
    source         TEXT COLLATE "C" NOT NULL,
    category       TEXT COLLATE "C" NOT NULL,
    published_date TEXT COLLATE "C" NOT NULL,
    slug           TEXT COLLATE "C" NOT NULL,
    doc            TSVECTOR NOT NULL
);
CREATE INDEX circular_search_doc ON circular_search USING gin (doc);
CREATE TABLE search_words (
    word TEXT COLLATE "C" PRIMARY KEY,
    key  TEXT COLLATE "C" NOT NULL
);

CREATE TABLE newsletter_subscribers (
    id            TEXT COLLATE "C" PRIMARY KEY,
    email         TEXT NOT NULL,
    email_key     TEXT COLLATE "C" NOT NULL UNIQUE,
    first_name    TEXT NOT NULL DEFAULT '',
    last_name     TEXT NOT NULL DEFAULT '',
    subscribed_at TEXT COLLATE "C" NOT NULL,
    is_active     BOOLEAN NOT NULL DEFAULT TRUE,
    preferences   TEXT NOT NULL DEFAULT '[]',
    source        TEXT NOT NULL CHECK (source IN ('website', 'dashboard', 'newsletter-page'))
);
CREATE INDEX newsletter_subscribers_subscribed_at ON newsletter_subscribers (subscribed_at DESC, id);

CREATE TABLE newsletter_deliveries (
    subscriber_id TEXT COLLATE "C" NOT NULL REFERENCES newsletter_subscribers (id) ON DELETE CASCADE,
    month         TEXT COLLATE "C" NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    message_id    TEXT NOT NULL,
    error         TEXT NOT NULL DEFAULT '',
    updated_at    TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (subscriber_id, month)
);

CREATE TABLE newsletter_runs (
    month       TEXT COLLATE "C" PRIMARY KEY,
    holder      TEXT NOT NULL,
    lease_until TEXT COLLATE "C" NOT NULL,
    finished_at TEXT COLLATE "C"
);

-- +goose Down
DROP TABLE newsletter_runs;
DROP TABLE newsletter_deliveries;
DROP TABLE newsletter_subscribers;
DROP TABLE search_words;
DROP TABLE circular_search;
DROP TABLE user_preferences;
DROP TABLE users;
DROP TABLE circular_impact_analyses;
DROP TABLE impact_records;
DROP TABLE circular_summaries;
DROP TABLE sibos_events;
DROP TABLE payment_networks;
DROP TABLE pii_regulations;
DROP TABLE fintech_companies;
DROP TABLE news;
DROP TABLE circulars;
