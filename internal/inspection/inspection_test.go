package inspection

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"regpulse/internal/audit"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/teams"
)

var (
	at     = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	asha   = "11111111-1111-4111-8111-111111111111"
	ravi   = "22222222-2222-4222-8222-222222222222"
	orgID  = "99999999-9999-4999-8999-999999999999"
	fileID = "eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee"
)

func day(s string) *catalog.Date {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return &catalog.Date{Time: t}
}

// fixture is a register of two items: a circular with a comment, a file
// of evidence and its rows; a provision not applicable; and the rows of
// the organisation's creation and a member's joining.
func fixture(t testing.TB) Register {
	org := teams.Organisation{ID: orgID, Name: "Asha Payments — ₹ & Co", EntityTypes: []string{"psp", "aggregator"}}
	circ := decisions.Subject{Type: decisions.SubjectCircular, ID: "c-1"}
	prov := decisions.Subject{Type: decisions.SubjectProvision, ID: "md-kyc", Provision: "15(a)(i)"}
	reviewed := at.Add(-time.Hour)
	items := []Item{
		{Decision: decisions.Decision{OrganisationID: orgID, Subject: circ, Applicability: decisions.Applicable, OwnerID: catalog.OptString(ravi),
			Due: "effective+30d", DueDate: day("2026-05-01"), Status: decisions.StatusActionPlanned, DecidedBy: catalog.OptString(asha),
			DecidedAt: at.Add(-48 * time.Hour), Version: 2,
			Reopened: &decisions.Reopening{At: at.Add(-2 * time.Hour), Reason: decisions.ReopenWithdrawn, From: "", To: "2026-03-01", PriorStatus: decisions.StatusDone}},
			Title: "Master Direction on KYC: पहचान and limits",
			Comments: []decisions.Comment{{ID: "cccccccc-cccc-4ccc-8ccc-cccccccccccc", OrganisationID: orgID, Subject: circ, AuthorID: catalog.OptString(asha),
				Body: "@ravi please =SUM(A1) check", CreatedAt: at.Add(-47 * time.Hour), Mentions: []string{ravi}}},
			Evidence: []decisions.Evidence{{ID: fileID, OrganisationID: orgID, Subject: circ, Kind: decisions.EvidenceFile, Name: "board-note.pdf",
				Size: 1234, SHA256: catalog.OptString(strings.Repeat("ab", 32)), MediaType: "application/pdf", AddedBy: catalog.OptString(ravi),
				AddedAt: at.Add(-46 * time.Hour), State: decisions.EvidenceAccepted, ReviewedBy: catalog.OptString(asha), ReviewedAt: &reviewed}}},
		{Decision: decisions.Decision{OrganisationID: orgID, Subject: prov, Applicability: decisions.NotApplicable, Reason: decisions.ReasonOther,
			Note: "We issue no cards", Status: decisions.StatusNotApplicable, DecidedBy: catalog.OptString(asha), DecidedAt: at.Add(-24 * time.Hour), Version: 1}},
	}
	var trail []audit.Row
	head := audit.Start
	add := func(actor, action, subjectType, subjectID string, when time.Time) {
		row, err := audit.Next(head, audit.Entry{OrgID: orgID, ActorID: actor, Action: action, SubjectType: subjectType, SubjectID: subjectID,
			After: map[string]any{"n": len(trail)}}, when)
		if err != nil {
			t.Fatal(err)
		}
		row.ID = fmt.Sprintf("0000000%d-0000-7000-8000-000000000000", len(trail)) // deterministic
		row.Hash = row.ComputeHash()
		trail = append(trail, row)
		head = audit.Head{Seq: row.Seq, Hash: row.Hash}
	}
	add(asha, "organisation.create", "organisation", orgID, at.Add(-50*time.Hour))
	add(ravi, "member.join", "member", ravi, at.Add(-49*time.Hour))
	add(asha, "decision.create", "decision", circ.String(), at.Add(-48*time.Hour))
	add(asha, "comment.create", "comment", items[0].Comments[0].ID, at.Add(-47*time.Hour))
	add(ravi, "evidence.add", "evidence", fileID, at.Add(-46*time.Hour))
	add(asha, "decision.create", "decision", prov.String(), at.Add(-24*time.Hour))
	return Register{Organisation: org, Items: items, Trail: trail,
		People: map[string]Person{asha: {Username: "asha", Name: "Asha Rao"}, ravi: {Username: "ravi"}}}
}

var meta = Meta{GeneratedAt: at, GeneratedBy: "Asha Rao (asha)"}

func TestItemOf(t *testing.T) {
	r := fixture(t)
	got := r.ItemOf()
	want := map[int64]int{3: 0, 4: 0, 5: 0, 6: 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ItemOf = %v, want %v", got, want)
	}
	if c := r.Counts(); c != (Counts{Items: 2, Comments: 1, Evidence: 1, TrailRows: 6}) {
		t.Errorf("Counts = %+v", c)
	}
}

func TestName(t *testing.T) {
	r := fixture(t)
	for id, want := range map[string]string{asha: "Asha Rao (asha)", ravi: "ravi", "": "", "gone": "gone"} {
		if got := r.Name(id); got != want {
			t.Errorf("Name(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestXLSX(t *testing.T) {
	var b bytes.Buffer
	if err := WriteXLSX(&b, fixture(t), meta); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, want := strings.Join(f.GetSheetList(), "|"), "Register|Comments|Evidence|Audit trail|About"; got != want {
		t.Errorf("sheets %s, want %s", got, want)
	}
	for _, c := range []struct{ sheet, cell, want string }{
		{SheetRegister, "A1", "Item"},
		{SheetRegister, "A2", "circular c-1"},
		{SheetRegister, "E2", "Master Direction on KYC: पहचान and limits"}, // every character kept
		{SheetRegister, "J2", "ravi"},
		{SheetRegister, "L2", "2026-05-01"},
		{SheetRegister, "N2", "Asha Rao (asha)"},
		{SheetRegister, "O2", "2026-03-02 05:06:07"},
		{SheetRegister, "R2", "1"}, {SheetRegister, "S2", "1"}, {SheetRegister, "T2", "3"},
		{SheetRegister, "A3", "provision md-kyc 15(a)(i)"},
		{SheetRegister, "F3", "not-applicable"}, {SheetRegister, "G3", "other"}, {SheetRegister, "H3", "We issue no cards"},
		{SheetRegister, "L3", ""}, {SheetRegister, "T3", "1"},
		{SheetRegister, "U2", "2026-03-04 03:06:07"}, {SheetRegister, "V2", "circular-withdrawn (text version none to 2026-03-01; was done)"},
		{SheetRegister, "U3", ""}, {SheetRegister, "V3", ""},
		{SheetComments, "E2", "@ravi please =SUM(A1) check"},
		{SheetComments, "F2", "ravi"},
		{SheetEvidence, "F2", strings.Repeat("ab", 32)},
		{SheetEvidence, "E2", "1234"},
		{SheetEvidence, "L2", "accepted"},
		{SheetTrail, "A7", "6"},
		{SheetTrail, "D2", "organisation.create"}, {SheetTrail, "G2", ""},
		{SheetTrail, "G5", "circular c-1"}, // the comment's row names its item
		{SheetTrail, "G6", "circular c-1"}, // and the evidence's
		{SheetAbout, "B1", "Asha Payments — ₹ & Co"},
		{SheetAbout, "B6", "2"},
		{SheetAbout, "B10", "6"},
	} {
		got, err := f.GetCellValue(c.sheet, c.cell)
		if err != nil || got != c.want {
			t.Errorf("%s!%s = %q, %v; want %q", c.sheet, c.cell, got, err, c.want)
		}
	}
	// Dates are dates, not text; a formula-like comment is text, not a
	// formula.
	for _, c := range []struct{ sheet, cell string }{{SheetRegister, "L2"}, {SheetRegister, "O2"}, {SheetTrail, "B2"}} {
		if typ, err := f.GetCellType(c.sheet, c.cell); err != nil || typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
			t.Errorf("%s!%s is of type %v, %v: want a number (a date)", c.sheet, c.cell, typ, err)
		}
		raw, _ := f.GetCellValue(c.sheet, c.cell, excelize.Options{RawCellValue: true})
		if _, err := fmt.Sscanf(raw, "%f", new(float64)); err != nil {
			t.Errorf("%s!%s raw %q: not a serial date", c.sheet, c.cell, raw)
		}
	}
	if formula, _ := f.GetCellFormula(SheetComments, "E2"); formula != "" {
		t.Errorf("comment became a formula: %q", formula)
	}
	for _, sheet := range []string{SheetRegister, SheetComments, SheetEvidence, SheetTrail} {
		panes, err := f.GetPanes(sheet)
		if err != nil || !panes.Freeze || panes.YSplit != 1 {
			t.Errorf("%s: panes %+v, %v: want the header row frozen", sheet, panes, err)
		}
		if w, err := f.GetColWidth(sheet, "A"); err != nil || w < 8 {
			t.Errorf("%s: column A width %v, %v", sheet, w, err)
		}
	}
}

var pageObj = regexp.MustCompile(`/Type /Page\b[^s]`)

func TestPDF(t *testing.T) {
	for _, c := range []struct {
		name  string
		r     func(Register) Register
		pages int
	}{
		{"fixture", func(r Register) Register { return r }, 3}, // title, register, other rows
		{"empty", func(r Register) Register { r.Items, r.Trail = nil, nil; return r }, 3},
		{"long", func(r Register) Register { // 200 items run onto more pages
			base := r.Items[1]
			r.Items = nil
			for i := range 200 {
				it := base
				it.Subject.Provision = catalog.OptString(fmt.Sprint(i))
				r.Items = append(r.Items, it)
			}
			return r
		}, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WritePDF(&b, c.r(fixture(t)), meta); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) {
				t.Fatalf("starts %q", b.Bytes()[:8])
			}
			pages := len(pageObj.FindAll(b.Bytes(), -1))
			if c.pages > 0 && pages != c.pages || c.pages < 0 && pages < 8 {
				t.Errorf("%d pages, want %d", pages, c.pages)
			}
			if _, err := exec.LookPath("pdftotext"); err != nil {
				t.Log("no pdftotext: the text is not checked")
				return
			}
			path := filepath.Join(t.TempDir(), "r.pdf")
			if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("pdftotext", "-layout", path, "-").Output()
			if err != nil {
				t.Fatal(err)
			}
			text := string(out)
			if c.name != "fixture" {
				if !strings.Contains(text, "Register of decisions") || !strings.Contains(text, fmt.Sprintf("of %d", pages)) {
					t.Errorf("text:\n%s", text)
				}
				return
			}
			for _, want := range []string{"Register of decisions", "Asha Payments — Rs. & Co", "Generated by: Asha Rao (asha)",
				"Items: 2", "Audit trail rows: 6", "1. circular c-1", "Master Direction on KYC: \uFFFD", "SHA-256 " + strings.Repeat("ab", 32),
				"@ravi please =SUM(A1) check", "2. provision md-kyc 15(a)(i)", "not-applicable (other) · status not-applicable · owner none · due none", "We issue no cards",
				"status action-planned · owner ravi · due 2026-05-01 (effective+30d)",
				"Reopened: 2026-03-04 03:06:07 UTC: circular-withdrawn (text version none to 2026-03-01; was done)",
				"Audit row 5", "evidence.add evidence " + fileID, "Other rows of the audit trail", "organisation.create", "Page 3 of 3",
				"hash " + fixture(t).Trail[5].Hash} {
				if !strings.Contains(text, want) {
					t.Errorf("no %q in:\n%s", want, text)
				}
			}
		})
	}
}

func TestPDFText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":         "plain",
		"₹500":          "Rs.500",
		"Ж α é — “q”":   "Ж α é — “q”",
		"कर":            "\uFFFD\uFFFD",
		"a\tb\nc\x00":   "a b\nc ",
		"bad \xff byte": "bad \uFFFD byte",
	} {
		if got := pdfText(in); got != want {
			t.Errorf("pdfText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWrite_Deterministic: the same register and time give the same
// bytes in either format; another time gives others.
func TestWrite_Deterministic(t *testing.T) {
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			a, err := Make(format, fixture(t), meta)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Make(format, fixture(t), meta)
			if err != nil {
				t.Fatal(err)
			}
			if a.SHA256 != b.SHA256 || !bytes.Equal(a.Data, b.Data) {
				t.Errorf("two exports of one register differ: %s, %s", a.SHA256, b.SHA256)
			}
			sum := sha256.Sum256(a.Data)
			if hex.EncodeToString(sum[:]) != a.SHA256 {
				t.Error("SHA256 is not the data's")
			}
			later := meta
			later.GeneratedAt = at.Add(time.Second)
			c, err := Make(format, fixture(t), later)
			if err != nil {
				t.Fatal(err)
			}
			if c.SHA256 == a.SHA256 {
				t.Error("an export made at another time has the same bytes")
			}
		})
	}
	if _, err := Make("csv", fixture(t), meta); err != ErrFormat {
		t.Errorf("csv: %v", err)
	}
}

func TestFileName(t *testing.T) {
	for _, c := range []struct{ name, format, want string }{
		{"Asha Payments", XLSX, "register-asha-payments-20260304T050607Z.xlsx"},
		{"  ₹ Ltd. / \"x\" ", PDF, "register-ltd-x-20260304T050607Z.pdf"},
		{"पहचान", PDF, "register-organisation-20260304T050607Z.pdf"},
		{strings.Repeat("ab-", 40), PDF, "register-" + strings.TrimSuffix(strings.Repeat("ab-", 20), "-") + "-20260304T050607Z.pdf"},
	} {
		if got := FileName(teams.Organisation{Name: c.name}, c.format, at.In(time.FixedZone("IST", 19800))); got != c.want {
			t.Errorf("FileName(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestEntry(t *testing.T) {
	r := fixture(t)
	h := Hashed{Data: []byte("x"), SHA256: "2d71"}
	e := Entry(teams.Actor{UserID: asha, OrganisationID: orgID, RequestID: "req"}, PDF, r, h)
	after, err := audit.Canonical(e.After)
	if err != nil || e.Action != "export.create" || e.OrgID != orgID || e.RequestID != "req" ||
		after != `{"bytes":1,"format":"pdf","items":2,"sha256":"2d71","trailHead":6}` {
		t.Errorf("%+v %s %v", e, after, err)
	}
}
