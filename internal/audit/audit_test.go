package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 9, 30, 0, 123456789, time.UTC)

// golden is one row with every field set, as the encoding's fixed point.
func golden() Row {
	return Row{
		ID: "0192f0a4-7c1e-7b3a-9d2e-5f6a7b8c9d0e", OrgID: "5b1e8c1a-2f4d-4c3b-9a7e-1d2c3b4a5f60", Seq: 7,
		ActorID: "u-asha", Action: "decision.update", SubjectType: "decision", SubjectID: "d-42",
		Before: `{"status":"assessing"}`, After: `{"note":"a <b> & c","status":"done"}`,
		At: t0.Truncate(time.Microsecond), RequestID: "req-1", ClientAddr: "203.0.113.7",
		PrevHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
	}
}

// TestHash_Golden holds encoding version 1 fixed: a change here breaks
// every chain already written. Never update these values; add a version.
func TestHash_Golden(t *testing.T) {
	r := golden()
	const enc = "17:regpulse-audit-v1,36:0192f0a4-7c1e-7b3a-9d2e-5f6a7b8c9d0e,36:5b1e8c1a-2f4d-4c3b-9a7e-1d2c3b4a5f60,1:7,6:u-asha,15:decision.update,8:decision,4:d-42," +
		`22:{"status":"assessing"},36:{"note":"a <b> & c","status":"done"},27:2026-12-01T09:30:00.123456Z,5:req-1,11:203.0.113.7,` +
		"64:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08,"
	if got := string(r.Encode()); got != enc {
		t.Errorf("Encode:\n got %s\nwant %s", got, enc)
	}
	const want = "356ef580165f71e182d46a4fcb0575eaccff46b6b4cceaeda743d43a91d4a433" // sha256sum of enc
	if got := r.ComputeHash(); got != want {
		t.Errorf("hash = %s, want %s", got, want)
	}
}

func TestCanonical(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"Nil", nil, "null"},
		{"SortedKeys", map[string]any{"b": 1, "a": []int{2, 1}}, `{"a":[2,1],"b":1}`},
		{"StructFieldsSorted", struct {
			Z string `json:"z"`
			A int    `json:"a"`
		}{"x", 1}, `{"a":1,"z":"x"}`},
		{"NoHTMLEscape", map[string]string{"n": "<a & b>"}, `{"n":"<a & b>"}`},
		{"NumbersKept", map[string]any{"n": 12345678901234567890.0, "i": int64(9007199254740993)}, `{"i":9007199254740993,"n":12345678901234567000}`},
		{"RawReordered", []byte(`{"b": 1, "a": {"d": 2, "c": 3}}`), `"eyJiIjogMSwgImEiOiB7ImQiOiAyLCAiYyI6IDN9fQ=="`},
		{"RawMessage", json.RawMessage(`{"b": 1, "a": {"d": 2, "c": 3}}`), `{"a":{"c":3,"d":2},"b":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Canonical(tc.in)
			if err != nil || got != tc.want {
				t.Errorf("Canonical = %s, %v; want %s", got, err, tc.want)
			}
		})
	}
	if _, err := Canonical(func() {}); err == nil {
		t.Error("a func was encoded")
	}
}

// chain builds an organisation's chain of n rows.
func chain(t testing.TB, org string, n int) []Row {
	t.Helper()
	head := Start
	var rows []Row
	for i := range n {
		r, err := Next(head, Entry{OrgID: org, ActorID: "u1", Action: "decision.update", SubjectType: "decision", SubjectID: "d1",
			Before: map[string]int{"v": i}, After: map[string]int{"v": i + 1}, RequestID: "r", ClientAddr: "192.0.2.1"},
			t0.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
		head = Head{Seq: r.Seq, Hash: r.Hash}
	}
	return rows
}

func seq(rows []Row) iter.Seq2[Row, error] {
	return func(yield func(Row, error) bool) {
		for _, r := range rows {
			if !yield(r, nil) {
				return
			}
		}
	}
}

func TestVerify(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(rows []Row) []Row
		seq    int64  // the broken row's, 0 for none
		reason string // a part of the reason
	}{
		{name: "Whole", change: func(rows []Row) []Row { return rows }},
		{name: "Empty", change: func(rows []Row) []Row { return nil }},
		{name: "Before", change: func(rows []Row) []Row { rows[3].Before = `{"v":99}`; return rows }, seq: 4, reason: "hash does not match"},
		{name: "After", change: func(rows []Row) []Row { rows[0].After = `{"v":0}`; return rows }, seq: 1, reason: "hash does not match"},
		{name: "Actor", change: func(rows []Row) []Row { rows[5].ActorID = "u2"; return rows }, seq: 6, reason: "hash does not match"},
		{name: "At", change: func(rows []Row) []Row { rows[2].At = rows[2].At.Add(time.Microsecond); return rows }, seq: 3, reason: "hash does not match"},
		{name: "ID", change: func(rows []Row) []Row { rows[2].ID = "other"; return rows }, seq: 3, reason: "hash does not match"},
		{name: "ClientAddr", change: func(rows []Row) []Row { rows[9].ClientAddr = "10.0.0.1"; return rows }, seq: 10, reason: "hash does not match"},
		{name: "RewrittenWithHash", change: func(rows []Row) []Row {
			rows[4].After = `{"v":0}`
			rows[4].Hash = rows[4].ComputeHash()
			return rows
		}, seq: 6, reason: "does not match row 5's hash"},
		{name: "Deleted", change: func(rows []Row) []Row { return slices.Delete(rows, 4, 5) }, seq: 6, reason: "sequence gap: row 6 follows row 4"},
		{name: "DeletedFirst", change: func(rows []Row) []Row { return rows[1:] }, seq: 2, reason: "sequence gap: row 2 follows row 0"},
		{name: "Reordered", change: func(rows []Row) []Row { rows[6], rows[7] = rows[7], rows[6]; return rows }, seq: 8, reason: "sequence gap: row 8 follows row 6"},
		{name: "Renumbered", change: func(rows []Row) []Row {
			// swapped and renumbered to look in order: the hashes tell
			rows[6], rows[7] = rows[7], rows[6]
			rows[6].Seq, rows[7].Seq = 7, 8
			return rows
		}, seq: 7, reason: "previous hash does not match row 6's"},
		{name: "Duplicated", change: func(rows []Row) []Row { return slices.Insert(rows, 3, rows[2]) }, seq: 3, reason: "out of order: row 3 follows row 3"},
		{name: "PrevHash", change: func(rows []Row) []Row { rows[0].PrevHash = strings.Repeat("1", 64); return rows }, seq: 1, reason: "genesis"},
		{name: "OtherOrganisation", change: func(rows []Row) []Row { return append(rows, chain(t, "org-b", 1)...) }, seq: 1, reason: `organisation "org-b"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := tc.change(chain(t, "org-a", 10))
			rep, err := Verify(seq(rows))
			if err != nil {
				t.Fatal(err)
			}
			if tc.seq == 0 {
				if rep.Broken != nil {
					t.Fatalf("broken at %d: %s", rep.Broken.Row.Seq, rep.Broken.Reason)
				}
				if rep.Rows != int64(len(rows)) || len(rows) > 0 && rep.Head.Hash != rows[len(rows)-1].Hash || len(rows) == 0 && rep.Head != Start {
					t.Errorf("report %+v", rep)
				}
				return
			}
			if rep.Broken == nil {
				t.Fatalf("not detected: %+v", rep)
			}
			if rep.Broken.Row.Seq != tc.seq || !strings.Contains(rep.Broken.Reason, tc.reason) {
				t.Errorf("broken at row %d (%s), want row %d (%s)", rep.Broken.Row.Seq, rep.Broken.Reason, tc.seq, tc.reason)
			}
		})
	}
}

func TestVerify_ReadError(t *testing.T) {
	boom := errors.New("boom")
	rows := chain(t, "org", 3)
	_, err := Verify(func(yield func(Row, error) bool) {
		for _, r := range rows {
			if !yield(r, nil) {
				return
			}
		}
		yield(Row{}, boom)
	})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}

func TestNext(t *testing.T) {
	r, err := Next(Start, Entry{OrgID: "o", Action: "a.b"}, time.Date(2026, 1, 2, 3, 4, 5, 999999999, time.FixedZone("IST", 19800)))
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != 1 || r.PrevHash != Genesis || r.Before != "null" || r.At.Location() != time.UTC || r.At.Nanosecond() != 999999000 || r.Hash != r.ComputeHash() || len(r.ID) != 36 {
		t.Errorf("row %+v", r)
	}
	for _, tc := range []struct {
		name string
		e    Entry
	}{
		{"NoOrganisation", Entry{Action: "a"}},
		{"NoAction", Entry{OrgID: "o"}},
		{"NUL", Entry{OrgID: "o", Action: "a", SubjectID: "x\x00"}},
		{"NotUTF8", Entry{OrgID: "o", Action: "a", ActorID: "\xff"}},
		{"BadBefore", Entry{OrgID: "o", Action: "a", Before: make(chan int)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Next(Start, tc.e, t0); err == nil {
				t.Error("accepted")
			}
		})
	}
}

// BenchmarkVerify is Verify's own cost per row, without a database.
func BenchmarkVerify(b *testing.B) {
	rows := chain(b, "5b1e8c1a-2f4d-4c3b-9a7e-1d2c3b4a5f60", 10000)
	for b.Loop() {
		if rep, err := Verify(seq(rows)); err != nil || rep.Broken != nil {
			b.Fatal(rep, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rows)), "ns/row")
}

func TestVerifyAll(t *testing.T) {
	chains := map[string][]Row{"a": chain(t, "a", 5), "b": chain(t, "b", 3), "c": nil}
	chains["b"][1].Action = "forged"
	for _, workers := range []int{0, 1, 2, 8} {
		reps, err := VerifyAll([]string{"c", "b", "a"}, func(org string) iter.Seq2[Row, error] { return seq(chains[org]) }, workers)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range reps {
			s := fmt.Sprintf("%s %d", r.OrgID, r.Rows)
			if r.Broken != nil {
				s += fmt.Sprintf(" broken at %d", r.Broken.Row.Seq)
			}
			got = append(got, s)
		}
		if want := []string{"c 0", "b 2 broken at 2", "a 5"}; !slices.Equal(got, want) {
			t.Errorf("%d workers: %q, want %q", workers, got, want)
		}
	}
	boom := errors.New("boom")
	_, err := VerifyAll([]string{"a", "x"}, func(org string) iter.Seq2[Row, error] {
		if org == "x" {
			return func(yield func(Row, error) bool) { yield(Row{}, boom) }
		}
		return seq(chains[org])
	}, 2)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "organisation x") {
		t.Errorf("err = %v", err)
	}
}
