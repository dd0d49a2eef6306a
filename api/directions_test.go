package api

import (
	"net/http"
	"strings"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

// The Master Directions' calls, on a store holding the repository's own
// content.
func TestDirections(t *testing.T) {
	cat, err := catalog.Load("../content")
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(t.Context(), ":memory:", store.WithNow(storetest.Clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
	f := &fixture{api: New(db, discardLog, WithNow(storetest.Clock), cheapAuth)}

	list := decode[[]DirectionSummary](t, "/master-directions", f.get(t, "/master-directions"))
	if len(list) != len(cat.Directions) {
		t.Fatalf("%d directions listed, want %d", len(list), len(cat.Directions))
	}
	var ppi DirectionSummary
	for _, d := range list {
		if d.Slug == "ppi-2021" {
			ppi = d
		}
	}
	if ppi.Versions == 0 || ppi.LastAmended == nil || ppi.Status != "in-force" {
		t.Errorf("ppi-2021 in the list: %+v, want in force with its versions", ppi)
	}

	vs := decode[DirectionVersions](t, "versions", f.get(t, "/master-directions/ppi-2021/versions"))
	if len(vs.Versions) != ppi.Versions || vs.Versions[0].Date.String() != "2021-11-12" || vs.Versions[0].ChangesKnown {
		t.Errorf("versions: %d, first %+v; want %d, the first of 2021-11-12 with unknown changes", len(vs.Versions), vs.Versions[0], ppi.Versions)
	}

	text := decode[DirectionText](t, "text", f.get(t, "/master-directions/ppi-2021/text?date=2024-01-01"))
	var ids []string
	for _, p := range text.Provisions {
		ids = append(ids, p.ID)
	}
	if got := strings.Join(ids, " "); got != "1 6 9 9.1(i)(b) 9.1(ii)(b) 10 10.3 11.6 13" {
		t.Errorf("provisions on 2024-01-01: %s", got)
	}
	if !text.InForce || text.Version == nil || text.Version.Date.String() != "2023-02-10" {
		t.Errorf("text on 2024-01-01: in force %v, version %+v; want in force, the version of 2023-02-10", text.InForce, text.Version)
	}
	before := decode[DirectionText](t, "text", f.get(t, "/master-directions/ppi-2021/text?date=2020-01-01"))
	if before.InForce || len(before.Provisions) != 0 {
		t.Errorf("text before the direction was issued: in force %v, %d provisions", before.InForce, len(before.Provisions))
	}

	// to before from: the earlier date is still the text before
	c := decode[DirectionComparison](t, "compare", f.get(t, "/master-directions/ppi-2021/compare?from=2025-12-01&to=2024-06-01"))
	if c.From.String() != "2024-06-01" || c.Added != 2 || c.Changed != 3 || c.Removed != 0 {
		t.Errorf("compare: from %s, %d added, %d changed, %d removed; want from 2024-06-01, 2, 3, 0", c.From, c.Added, c.Changed, c.Removed)
	}
	for _, ch := range c.Changes {
		if len(ch.By) == 0 || len(ch.Redline) == 0 {
			t.Errorf("change of %s: no amending version or no redline", ch.Provision)
		}
	}

	for _, tc := range []struct {
		target string
		status int
		field  string
	}{
		{"/master-directions/no-such/versions", http.StatusNotFound, ""},
		{"/master-directions/no-such/text", http.StatusNotFound, ""},
		{"/master-directions/no-such/compare?from=2024-01-01", http.StatusNotFound, ""},
		{"/master-directions/ppi-2021/text?date=2024-13-01", http.StatusBadRequest, "date"},
		{"/master-directions/ppi-2021/compare", http.StatusBadRequest, "from"},
		{"/master-directions/ppi-2021/compare?from=yesterday", http.StatusBadRequest, "from"},
		{"/master-directions?x=1", http.StatusBadRequest, "x"},
		{"/master-directions/ppi-2021/versions?date=2024-01-01", http.StatusBadRequest, "date"},
	} {
		res := f.get(t, tc.target)
		if res.status != tc.status || !strings.Contains(string(res.body), tc.field) {
			t.Errorf("GET %s = %d %s, want %d naming %q", tc.target, res.status, res.body, tc.status, tc.field)
		}
	}
	res := f.get(t, "/master-directions")
	if again := f.get(t, "/master-directions", "If-None-Match", res.header.Get("ETag")); again.status != http.StatusNotModified {
		t.Errorf("revalidated list: %d, want 304", again.status)
	}
	for _, p := range []string{"/master-directions/ppi-2021/versions", "/master-directions/ppi-2021/text", "/master-directions/ppi-2021/compare?from=2022-01-01"} {
		res := f.get(t, p)
		if again := f.get(t, p, "If-None-Match", res.header.Get("ETag")); again.status != http.StatusNotModified {
			t.Errorf("revalidated %s: %d, want 304", p, again.status)
		}
	}
}
