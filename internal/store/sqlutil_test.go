package store

import "testing"

func TestLikeContains(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"upi", "%upi%"},
		{"100%", `%100\%%`},
		{"upi_lite", `%upi\_lite%`},
		{`a\b`, `%a\\b%`},
		{"", "%%"},
	} {
		if got := likeContains(tc.in); got != tc.want {
			t.Errorf("likeContains(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSearchTerm(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"UPI Lite", "upi lite"},
		{"E₹", "e₹"},
		{"a\x1fb", "ab"},
	} {
		if got := searchTerm(tc.in); got != tc.want {
			t.Errorf("searchTerm(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestUpsertRowsSQL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		keys, rows int
		want       string
	}{
		{1, 1, "INSERT INTO t (id, a, b) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET a = excluded.a, b = excluded.b"},
		{2, 2, "INSERT INTO t (id, a, b) VALUES (?, ?, ?), (?, ?, ?) ON CONFLICT (id, a) DO UPDATE SET b = excluded.b"},
	} {
		if got := upsertRowsSQL("t", []string{"id", "a", "b"}, tc.keys, tc.rows); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}
