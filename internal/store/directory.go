package store

import (
	"context"

	"regpulse/internal/catalog"
)

// The directory: fintech companies, PII regulations, payment networks and
// SIBOS events. They are curated lists of tens of entries, filtered by
// equality only.

var (
	companyColumns    = columnsOf[catalog.Company]()
	regulationColumns = columnsOf[catalog.Regulation]()
	networkColumns    = columnsOf[catalog.Network]()
	sibosColumns      = columnsOf[catalog.SibosEvent]()
)

// ListCompanies returns the page of companies q selects, by slug, and how
// many it selects in all.
func (s *DB) ListCompanies(ctx context.Context, q catalog.CompanyQuery) ([]catalog.Company, int, error) {
	lq := listQuery{op: "ListCompanies", sel: companyColumns.selectList("", nil), from: "fintech_companies", order: "slug"}
	lq.where.eq("category", q.Category)
	return listPage(ctx, s.db, companyColumns, lq, q.Page)
}

// ListRegulations returns the page of regulations q selects, by slug, and
// how many it selects in all.
func (s *DB) ListRegulations(ctx context.Context, q catalog.RegulationQuery) ([]catalog.Regulation, int, error) {
	lq := listQuery{op: "ListRegulations", sel: regulationColumns.selectList("", nil), from: "pii_regulations", order: "slug"}
	lq.where.eq("country", q.Country)
	lq.where.eq("status", q.Status)
	return listPage(ctx, s.db, regulationColumns, lq, q.Page)
}

// ListNetworks returns a page of the payment networks, by slug, and how
// many there are.
func (s *DB) ListNetworks(ctx context.Context, page catalog.Page) ([]catalog.Network, int, error) {
	lq := listQuery{op: "ListNetworks", sel: networkColumns.selectList("", nil), from: "payment_networks", order: "slug"}
	return listPage(ctx, s.db, networkColumns, lq, page)
}

// ListSibosEvents returns a page of the SIBOS events, newest year first,
// and how many there are.
func (s *DB) ListSibosEvents(ctx context.Context, page catalog.Page) ([]catalog.SibosEvent, int, error) {
	lq := listQuery{op: "ListSibosEvents", sel: sibosColumns.selectList("", nil), from: "sibos_events", order: "year DESC, slug"}
	return listPage(ctx, s.db, sibosColumns, lq, page)
}

var (
	companyTable    = table[catalog.Company]{name: "fintech_companies", cols: companyColumns}
	regulationTable = table[catalog.Regulation]{name: "pii_regulations", cols: regulationColumns}
	networkTable    = table[catalog.Network]{name: "payment_networks", cols: networkColumns}
	sibosTable      = table[catalog.SibosEvent]{name: "sibos_events", cols: sibosColumns}
)
