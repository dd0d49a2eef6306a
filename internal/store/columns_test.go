package store

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

func TestSnakeCase(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"id": "id", "publishedDate": "published_date", "leaderIsCeo": "leader_is_ceo", "xProfile": "x_profile",
		"additionalSourceUrls": "additional_source_urls", "circularId": "circular_id",
	} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestColumnsOf(t *testing.T) {
	t.Parallel()
	got := columnsOf[catalog.NewsItem]().names
	want := []string{"id", "slug", "title", "content", "excerpt", "source", "category", "region", "published_date", "source_url", "circular"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("columns of NewsItem (-want +got):\n%s", diff)
	}
}

// TestColumns_RoundTrip writes values of every encoding through SQLite and
// reads them back: what comes back is what went in, absent values included.
func TestColumns_RoundTrip(t *testing.T) {
	t.Parallel()
	type row struct {
		ID       string                 `json:"id"`
		Date     catalog.Date           `json:"date"`
		OptDate  *catalog.Date          `json:"optDate"`
		OptInt   catalog.OptInt         `json:"optInt"`
		Text     catalog.OptString      `json:"text"`
		List     catalog.TextList       `json:"list"`
		Impact   []catalog.EntityImpact `json:"impact"`
		When     time.Time              `json:"at"`
		Flag     bool                   `json:"flag"`
		Count    int                    `json:"count"`
		Internal string                 `json:"-"`
	}
	cols := columnsOf[row]()
	db := openTest(t)
	if _, err := db.db.ExecContext(t.Context(), `CREATE TABLE t (id TEXT, date TEXT, opt_date TEXT, opt_int INTEGER, text TEXT,
		list TEXT, impact TEXT, at TEXT, flag INTEGER, count INTEGER)`); err != nil {
		t.Fatal(err)
	}
	d := catalog.Date{Time: time.Date(2025, 6, 20, 0, 0, 0, 0, time.UTC)}
	when := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		in, out row
	}{
		{"Full", row{ID: "a", Date: d, OptDate: &d, OptInt: 7, Text: "x", List: catalog.TextList{"p", "q"},
			Impact: []catalog.EntityImpact{{EntityType: "PSP", ImpactLevel: "high"}}, When: when, Flag: true, Count: 3},
			row{ID: "a", Date: d, OptDate: &d, OptInt: 7, Text: "x", List: catalog.TextList{"p", "q"},
				Impact: []catalog.EntityImpact{{EntityType: "PSP", ImpactLevel: "high"}}, When: when, Flag: true, Count: 3}},
		{"Absent", row{ID: "b", Date: d, When: when.In(time.FixedZone("IST", 19800)), Internal: "not stored"},
			row{ID: "b", Date: d, List: catalog.TextList{}, Impact: []catalog.EntityImpact{}, When: when}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals, err := cols.values(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.db.ExecContext(t.Context(), `INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, vals...); err != nil {
				t.Fatal(err)
			}
			var got row
			if err := db.db.QueryRowContext(t.Context(), `SELECT `+cols.selectList("", nil)+` FROM t WHERE id = ?`,
				tc.in.ID).Scan(cols.targets(&got)...); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.out, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("ErrBadStoredValues", func(t *testing.T) {
		for col, bad := range map[string]string{"date": "20-06-2025", "list": "{not a list", "at": "yesterday"} {
			if _, err := db.db.ExecContext(t.Context(), `INSERT INTO t (id, date, text, list, impact, at, flag, count) VALUES ('bad', '2025-06-20', '', '[]', '[]', '2025-06-30T12:00:00Z', 0, 0)`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.db.ExecContext(t.Context(), `UPDATE t SET "`+col+`" = ? WHERE id = 'bad'`, bad); err != nil {
				t.Fatal(err)
			}
			var got row
			err := db.db.QueryRowContext(t.Context(), `SELECT `+cols.selectList("", nil)+` FROM t WHERE id = 'bad'`).
				Scan(cols.targets(&got)...)
			if err == nil || !strings.Contains(err.Error(), bad) {
				t.Errorf("%s = %q: err %v, want one naming the value", col, bad, err)
			}
			if _, err := db.db.ExecContext(t.Context(), `DELETE FROM t WHERE id = 'bad'`); err != nil {
				t.Fatal(err)
			}
		}
	})
}
