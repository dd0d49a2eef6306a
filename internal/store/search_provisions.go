package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/search/index"
	"regpulse/internal/search/memo"
)

// Searching the Master Directions' provisions in force: a second
// in-memory index (internal/search/index, as the circulars'), of the
// provisions in force today, read from provision_spans.
//
// In force today is decided when searching, from the spans' days, not
// when syncing: a version may come into force after the sync that
// brought it (RBI announces changes ahead), and a direction may be
// replaced on a later day. So the index reads every span not ended
// today (valid_to after it, the direction's replacement or withdrawal
// counting as an end), holds those in force and keeps the others
// aside; at the first search of each day it swaps in the texts that
// took effect and drops the ones that ended. A sync that changes a
// direction or a span stamps search_version.provisions, and every
// instance reads the provisions again at its next search. Texts are
// short and few (75,000 in force at the archive's generated size), so
// they are keyed when read rather than stored keyed.

// provisionState is the store's in-memory index of the provisions.
type provisionState struct {
	mu  sync.Mutex // one read or day's change at a time
	cur atomic.Pointer[provisionIndex]
}

// provisionIndex is the provisions in force on day, from the spans
// stamped provisions of generation.
type provisionIndex struct {
	idx        *index.Index
	generation string
	provisions int64
	day        catalog.Date
	// spans are the spans not ended on the day they were read, by index
	// key; only those in force on day are in idx.
	spans []searchedSpan
	// hits are the provisions searches found, by span id, as read at the
	// provisions' stamp (so used only by searches at it): a span changed
	// later is read into the index of its new stamp.
	hits *memo.Map[string, search.ProvisionHit]
}

// provisionHitBytes bounds the provisions an index keeps found.
const provisionHitBytes = 8 << 20

// searchedSpan is what the index keeps of a span: its id, its days
// (to: its end, or its direction's), and its Doc while not yet in force.
type searchedSpan struct {
	id       string
	from     catalog.Date
	to       *catalog.Date
	doc      index.Doc
	searched bool // in idx (in force on the index's day)
}

func (s searchedSpan) inForceOn(day catalog.Date) bool {
	return !day.Before(s.from.Time) && (s.to == nil || day.Before(s.to.Time))
}

// stampProvisions marks the provisions as changed in the sync's
// transaction: every instance reads them again at its next search.
func stampProvisions(ctx context.Context, st *txStmts) error {
	v, err := st.searchVersion(ctx)
	if err != nil {
		return err
	}
	return st.exec(ctx, `UPDATE search_version SET provisions = ? WHERE id = 1`, v)
}

// provisionIndex is the index of the provisions in force today, read
// again when stamp says they changed, brought to today when the day
// changed. While another search does either, a search answers from the
// index as it is.
func (s *DB) provisionIndex(ctx context.Context, stamp searchStamp) (*provisionIndex, error) {
	today := catalog.Date{Time: catalog.Day(s.now())}
	cur := s.provisions.cur.Load()
	fresh := func(p *provisionIndex) bool {
		return p != nil && p.generation == stamp.generation && p.provisions == stamp.provisions && p.day.Equal(today.Time)
	}
	if fresh(cur) {
		return cur, nil
	}
	if cur != nil {
		if !s.provisions.mu.TryLock() {
			return cur, nil
		}
	} else {
		s.provisions.mu.Lock()
	}
	defer s.provisions.mu.Unlock()
	if cur = s.provisions.cur.Load(); fresh(cur) {
		return cur, nil
	}
	if cur == nil || cur.generation != stamp.generation || cur.provisions != stamp.provisions || today.Before(cur.day.Time) {
		next, err := s.readProvisions(ctx, stamp, today)
		if err != nil {
			return nil, err
		}
		s.provisions.cur.Store(next)
		return next, nil
	}
	next, err := cur.on(today)
	if err != nil {
		return nil, err
	}
	s.provisions.cur.Store(next)
	return next, nil
}

// on is p brought to a later day: the texts that took effect since are
// added, those that ended removed, in one change of the index.
func (p *provisionIndex) on(day catalog.Date) (*provisionIndex, error) {
	next := *p
	next.day = day
	next.spans = slices.Clone(p.spans)
	var added []index.Doc
	var removed []int64
	for key := range next.spans {
		sp := &next.spans[key]
		switch in := sp.inForceOn(day); {
		case in && !sp.searched:
			added = append(added, sp.doc)
			sp.doc, sp.searched = index.Doc{}, true // the index holds it now
		case !in && sp.searched:
			removed = append(removed, int64(key))
			sp.searched = false
		}
	}
	if err := p.idx.Apply(added, removed, nil); err != nil {
		return nil, fmt.Errorf("provisions: %w", err)
	}
	return &next, nil
}

// readProvisions reads the spans not ended on day and indexes those in
// force on it.
func (s *DB) readProvisions(ctx context.Context, stamp searchStamp, day catalog.Date) (*provisionIndex, error) {
	type row struct {
		hit search.ProvisionHit
		id  string
		to  *catalog.Date
	}
	rows, err := s.db.QueryContext(ctx, `SELECT s.id, s.provision, s.heading, s.text, s.valid_from, s.valid_to,
d.slug, d.short_title, d.title, d.source, d.status, d.status_date
FROM provision_spans s JOIN master_directions d ON d.slug = s.direction
WHERE s.valid_to IS NULL OR s.valid_to > ?
ORDER BY s.direction, s.position, s.valid_from`, day.String())
	if err != nil {
		return nil, fmt.Errorf("provisions: %w", err)
	}
	defer rows.Close()
	var read []row
	for rows.Next() {
		var r row
		var d catalog.MasterDirection
		if err := rows.Scan(&r.id, &r.hit.ID, &r.hit.Heading, &r.hit.Text, (*dateColumn)(&r.hit.InForceFrom), optDateColumn{&r.to},
			&r.hit.Direction, &d.ShortTitle, &d.Title, &r.hit.Source, &d.Status, optDateColumn{&d.StatusDate}); err != nil {
			return nil, fmt.Errorf("provisions: %w", err)
		}
		r.hit.DirectionTitle = d.Label()
		if d.Status != "in-force" && d.StatusDate != nil && (r.to == nil || d.StatusDate.Before(r.to.Time)) {
			r.to = d.StatusDate // replaced or withdrawn: its provisions end with it
		}
		if r.to != nil && !day.Before(r.to.Time) {
			continue
		}
		read = append(read, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("provisions: %w", err)
	}
	docs, err := eachParallel(read, func(r row) (index.Doc, error) {
		terms, err := index.Count(search.IndexProvision(r.hit)).AppendBinary(nil)
		if err != nil {
			return index.Doc{}, fmt.Errorf("provision %s: %w", r.id, err)
		}
		return index.Doc{Source: r.hit.Source, Date: r.hit.InForceFrom.String(), Slug: r.id, Terms: terms}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("provisions: %w", err)
	}
	p := &provisionIndex{idx: index.New(), generation: stamp.generation, provisions: stamp.provisions, day: day,
		spans: make([]searchedSpan, len(read)), hits: memo.New[string, search.ProvisionHit](provisionHitBytes)}
	var now []index.Doc
	for key, r := range read {
		sp := searchedSpan{id: r.id, from: r.hit.InForceFrom, to: r.to}
		doc := docs[key]
		doc.Key = int64(key)
		if sp.inForceOn(day) {
			now = append(now, doc)
			sp.searched = true
		} else {
			sp.doc = doc // takes effect on a later day
		}
		p.spans[key] = sp
	}
	if err := p.idx.Apply(now, nil, nil); err != nil {
		return nil, fmt.Errorf("provisions: %w", err)
	}
	return p, nil
}

// provisionHits reads the provisions of the index's matches ms, in
// order, those p keeps from it when p is of stamp (kept), the others from
// the database; a span removed since the index was read is left out.
func (s *DB) provisionHits(ctx context.Context, p *provisionIndex, kept bool, ms []index.Match) ([]search.Hit, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	byID := map[string]search.ProvisionHit{}
	var args []any
	for _, m := range ms {
		id := p.spans[m.Key].id
		if h, ok := p.hits.Get(id); ok && kept {
			byID[id] = h
		} else {
			args = append(args, id)
		}
	}
	if err := s.readProvisionHits(ctx, args, func(id string, h search.ProvisionHit) {
		byID[id] = h
		if kept {
			p.hits.Put(id, h, 512+len(h.Text)+len(h.Wording)+len(h.Heading))
		}
	}); err != nil {
		return nil, err
	}
	var out []search.Hit
	for _, m := range ms {
		if h, ok := byID[p.spans[m.Key].id]; ok {
			out = append(out, search.Hit{Provision: &h, Tier: m.Tier})
		}
	}
	return out, nil
}

// readProvisionHits reads the provisions of the span ids args, calling
// found with each.
func (s *DB) readProvisionHits(ctx context.Context, args []any, found func(id string, h search.ProvisionHit)) error {
	if len(args) == 0 {
		return nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT s.id, s.provision, s.chapter, s.heading, s.text, s.wording, s.valid_from,
d.slug, d.short_title, d.title, d.source
FROM provision_spans s JOIN master_directions d ON d.slug = s.direction
WHERE s.id IN (`+placeholders(len(args))+`)`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, title string
		var h search.ProvisionHit
		if err := rows.Scan(&id, &h.ID, &h.Chapter, &h.Heading, &h.Text, &h.Wording, (*dateColumn)(&h.InForceFrom),
			&h.Direction, &h.DirectionTitle, &title, &h.Source); err != nil {
			return err
		}
		if h.DirectionTitle == "" {
			h.DirectionTitle = title
		}
		h.URL = search.ProvisionURL(h.Direction, h.ID)
		found(id, h)
	}
	return rows.Err()
}

// searchProvisions finds the best search.ProvisionResults provisions in
// force for p (index.FindTop: widened to some terms only through rarer
// ones), with p's source filter; none for a category (provisions
// have none) or a by-date search (the feed lists circulars). They are the
// same on every page, as the answer is.
func (s *DB) searchProvisions(ctx context.Context, stamp searchStamp, p search.Plan) ([]search.Hit, error) {
	if p.Query.ByDate || p.Query.Category != "" {
		return nil, nil
	}
	pi, err := s.provisionIndex(ctx, stamp)
	if err != nil {
		return nil, err
	}
	p.Query.Page, p.Latest = 1, false
	kept := pi.generation == stamp.generation && pi.provisions == stamp.provisions
	return s.provisionHits(ctx, pi, kept, pi.idx.FindTop(p, search.ProvisionResults))
}

// LoadProvisionIndex reads the provisions in force into memory now,
// rather than at the first search, and says how many are in force.
func (s *DB) LoadProvisionIndex(ctx context.Context) (_ int, err error) {
	defer wrap(&err, "LoadProvisionIndex")
	stamp, err := s.storedSearchVersion(ctx)
	if err != nil {
		return 0, err
	}
	p, err := s.provisionIndex(ctx, stamp)
	if err != nil {
		return 0, err
	}
	return p.idx.Stats().Docs, nil
}
