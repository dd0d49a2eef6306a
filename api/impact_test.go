package api

import (
	"testing"

	"regpulse/internal/store/storetest"
)

func TestHandler_ImpactTracking(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	res := f.get(t, "/impact-tracking")
	recs := decode[[]impactRecordJSON](t, "/impact-tracking", res)
	str := func(s string) *string { return &s }
	want := []impactRecordJSON{
		{EntityType: "PSP", CircularID: str(idOf("circulars", fraud)), ComplianceScore: 93, HighImpactCount: 2, MediumImpactCount: 1},
		{EntityType: "Issuer", CircularID: str(idOf("circulars", bima)), ComplianceScore: 98, HighImpactCount: 1, MediumImpactCount: 1, LowImpactCount: 2},
		{EntityType: "Aggregator", CircularID: str(idOf("circulars", fraud)), ComplianceScore: 95, HighImpactCount: 1, LowImpactCount: 1},
	}
	if len(recs) != len(want) {
		t.Fatalf("got %s", res.body)
	}
	for i, r := range recs {
		w := want[i]
		if r.ID == "" || r.CircularID == nil || *r.CircularID != *w.CircularID || r.EntityType != w.EntityType ||
			r.ComplianceScore != w.ComplianceScore || r.HighImpactCount != w.HighImpactCount ||
			r.MediumImpactCount != w.MediumImpactCount || r.LowImpactCount != w.LowImpactCount ||
			r.UpdatedAt != "2025-06-30T12:00:00Z" {
			t.Errorf("record %d = %+v\nwant %+v", i, r, w)
		}
	}

	t.Run("EmptyStore", func(t *testing.T) {
		f := newFixture(t, nil)
		res := f.get(t, "/impact-tracking")
		for _, r := range decode[[]impactRecordJSON](t, "/impact-tracking", res) {
			if r.CircularID != nil || r.ComplianceScore != 100 || r.HighImpactCount+r.MediumImpactCount+r.LowImpactCount != 0 {
				t.Errorf("record before any sync = %+v", r)
			}
		}
	})
	runErrCases(t, f, []errCase{
		{"ErrUnknownParameter", "/impact-tracking?entityType=PSP", 400, []string{"entityType"}},
	})
}
