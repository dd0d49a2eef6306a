-- +goose Up
-- A circular's lifecycle (catalog.Circular's withdrawnOn, withdrawnBy,
-- rulesNowIn, derived by the loader): the day it stopped being in force,
-- what ended it and where its rules went. Each obligation carries its
-- circular's day (circularWithdrawnOn), as it carries its title, so a
-- register leaves out what is no longer due without a join; and the
-- Master Direction provisions it cites, with their review when they
-- changed since (catalog.Obligation's cites and review, JSON).
ALTER TABLE circulars ADD COLUMN withdrawn_on TEXT;                        -- YYYY-MM-DD; NULL while in force
ALTER TABLE circulars ADD COLUMN withdrawn_by TEXT NOT NULL DEFAULT '[]';  -- JSON list of circular slugs
ALTER TABLE circulars ADD COLUMN rules_now_in TEXT NOT NULL DEFAULT '[]';  -- JSON list of {name, direction}
ALTER TABLE circular_obligations ADD COLUMN circular_withdrawn_on TEXT;
ALTER TABLE extracted_obligations ADD COLUMN circular_withdrawn_on TEXT;   -- not read: the view takes the circular's
ALTER TABLE circular_obligations ADD COLUMN cites TEXT;    -- JSON object; NULL for none
ALTER TABLE circular_obligations ADD COLUMN review TEXT;   -- JSON object; NULL while nothing cited changed
ALTER TABLE extracted_obligations ADD COLUMN cites TEXT;   -- extraction cites nothing (yet): NULL
ALTER TABLE extracted_obligations ADD COLUMN review TEXT;

DROP VIEW obligations_shown;
CREATE VIEW obligations_shown AS
SELECT id, circular_id, position, applies_to, what, kind, due_date, deadline, binding, source_text, source_start, source_end,
       origin, provider, model, accepted, circular_slug, circular_title, source, impact_level, circular_withdrawn_on, cites, review
FROM circular_obligations
UNION ALL
SELECT e.id, e.circular_id, e.position, e.applies_to, e.what, e.kind, e.due_date, e.deadline, e.binding, e.source_text,
       e.source_start, e.source_end, e.origin, e.provider, e.model, e.accepted, c.slug, c.title, c.source, c.impact_level,
       c.withdrawn_on, e.cites, e.review
FROM extracted_obligations e JOIN circulars c ON c.id = e.circular_id
WHERE NOT EXISTS (SELECT 1 FROM circular_obligations w WHERE w.circular_id = e.circular_id);

-- +goose Down
DROP VIEW obligations_shown;
CREATE VIEW obligations_shown AS
SELECT id, circular_id, position, applies_to, what, kind, due_date, deadline, binding, source_text, source_start, source_end,
       origin, provider, model, accepted, circular_slug, circular_title, source, impact_level
FROM circular_obligations
UNION ALL
SELECT e.id, e.circular_id, e.position, e.applies_to, e.what, e.kind, e.due_date, e.deadline, e.binding, e.source_text,
       e.source_start, e.source_end, e.origin, e.provider, e.model, e.accepted, c.slug, c.title, c.source, c.impact_level
FROM extracted_obligations e JOIN circulars c ON c.id = e.circular_id
WHERE NOT EXISTS (SELECT 1 FROM circular_obligations w WHERE w.circular_id = e.circular_id);
ALTER TABLE extracted_obligations DROP COLUMN review;
ALTER TABLE extracted_obligations DROP COLUMN cites;
ALTER TABLE circular_obligations DROP COLUMN review;
ALTER TABLE circular_obligations DROP COLUMN cites;
ALTER TABLE extracted_obligations DROP COLUMN circular_withdrawn_on;
ALTER TABLE circular_obligations DROP COLUMN circular_withdrawn_on;
ALTER TABLE circulars DROP COLUMN rules_now_in;
ALTER TABLE circulars DROP COLUMN withdrawn_by;
ALTER TABLE circulars DROP COLUMN withdrawn_on;
