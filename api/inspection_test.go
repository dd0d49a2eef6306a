package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"regpulse/internal/decisions"
	"regpulse/internal/inspection"
	"regpulse/internal/teams"
)

func exportPath(orgID, format string) string {
	return "/organisations/" + orgID + "/export?format=" + format
}

// TestInspection_Roles: every member who may read exports (an auditor
// until its access ends); another organisation's, or an ended
// auditor's, is a 404 that does not confirm it exists; signed out, 401;
// a format that is neither is a 400 in JSON.
func TestInspection_Roles(t *testing.T) {
	f := newDecisionsFixture(t)
	admin, ravi := f.person(t, "asha"), f.person(t, "ravi")
	own, other := f.createOrg(t, admin, "Asha Payments"), f.createOrg(t, ravi, "Ravi Cards")
	callers := f.roleCallers(t, admin, own.ID)
	subject := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	for _, o := range []struct {
		org teams.Organisation
		by  person
	}{{own, admin}, {other, ravi}} {
		if res := f.call(t, "PUT", decisionPath(o.org.ID, subject), `{"applicability":"applicable","version":0}`, o.by.auth...); res.status != 200 {
			t.Fatalf("the decision: %d %s", res.status, res.body)
		}
	}
	f.advance(2 * time.Hour) // the "ended" auditor's access is over
	for _, format := range inspection.Formats {
		for role, want := range map[string]struct{ own, other int }{
			"admin": {200, 404}, "member": {200, 404}, "viewer": {200, 404}, "auditor": {200, 404}, "ended": {404, 404}} {
			t.Run(format+"/"+role, func(t *testing.T) {
				if res := f.call(t, "GET", exportPath(own.ID, format), "", callers[role].auth...); res.status != want.own {
					t.Errorf("own: %d %s, want %d", res.status, res.body, want.own)
				}
				res := f.call(t, "GET", exportPath(other.ID, format), "", callers[role].auth...)
				if res.status != want.other || !strings.Contains(string(res.body), "No organisation of yours") {
					t.Errorf("other: %d %s, want %d without naming it", res.status, res.body, want.other)
				}
			})
		}
		t.Run(format+"/signed-out", func(t *testing.T) {
			if res := f.call(t, "GET", exportPath(own.ID, format), ""); res.status != 401 {
				t.Errorf("%d %s, want 401", res.status, res.body)
			}
		})
	}
	for _, target := range []string{exportPath(own.ID, "csv"), "/organisations/" + own.ID + "/export", exportPath(own.ID, "pdf") + "&format=xlsx"} {
		res := f.call(t, "GET", target, "", admin.auth...)
		var body Error
		if res.status != 400 || json.Unmarshal(res.body, &body) != nil || body.Fields["format"] == "" {
			t.Errorf("%s: %d %s, want a 400 naming the format", target, res.status, res.body)
		}
	}
	// A bad request leaves no row in the trail; each export one.
	rows, err := f.db.AuditSubject(t.Context(), own.ID, "organisation", own.ID)
	if err != nil {
		t.Fatal(err)
	}
	exports := 0
	for _, r := range rows {
		if r.Action == "export.create" {
			exports++
		}
	}
	if exports != 2*4 {
		t.Errorf("%d exports in the trail, want 8", exports)
	}
}

// TestInspection_File: the file is what it says (a workbook with the
// decision, a PDF), its headers carry its SHA-256, and the trail's
// export.create row keeps the same hash, format and count.
func TestInspection_File(t *testing.T) {
	f := newDecisionsFixture(t)
	admin := f.person(t, "asha")
	own := f.createOrg(t, admin, "Asha Payments")
	subject := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	if res := f.call(t, "PUT", decisionPath(own.ID, subject), `{"applicability":"applicable","version":0}`, admin.auth...); res.status != 200 {
		t.Fatalf("the decision: %d %s", res.status, res.body)
	}
	if res := f.call(t, "POST", commentsPath(own.ID, subject), `{"body":"Checked against the policy"}`, admin.auth...); res.status != 201 {
		t.Fatalf("the comment: %d %s", res.status, res.body)
	}
	for _, c := range []struct {
		format, contentType, magic string
	}{
		{inspection.XLSX, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "PK\x03\x04"},
		{inspection.PDF, "application/pdf", "%PDF-"},
	} {
		t.Run(c.format, func(t *testing.T) {
			res := f.call(t, "GET", exportPath(own.ID, c.format), "", admin.auth...)
			if res.status != 200 {
				t.Fatalf("%d %s", res.status, res.body)
			}
			sum := sha256.Sum256(res.body)
			hexSum := hex.EncodeToString(sum[:])
			h := res.header
			wantName := `attachment; filename=register-asha-payments-` + f.clock().UTC().Format("20060102T150405Z") + "." + c.format
			if h.Get("Content-Type") != c.contentType || h.Get("Content-Disposition") != wantName || h.Get("X-Export-Sha256") != hexSum ||
				h.Get("Repr-Digest") != "sha-256=:"+base64.StdEncoding.EncodeToString(sum[:])+":" || h.Get("Cache-Control") != "private, no-store" ||
				!bytes.HasPrefix(res.body, []byte(c.magic)) {
				t.Errorf("headers %v, body starts %q", h, res.body[:min(8, len(res.body))])
			}
			rows, err := f.db.AuditSubject(t.Context(), own.ID, "organisation", own.ID)
			if err != nil {
				t.Fatal(err)
			}
			last := rows[len(rows)-1]
			var after struct {
				Format string `json:"format"`
				Items  int    `json:"items"`
				SHA256 string `json:"sha256"`
				Bytes  int    `json:"bytes"`
			}
			if err := json.Unmarshal([]byte(last.After), &after); err != nil || last.Action != "export.create" || last.ActorID != admin.id ||
				after.Format != c.format || after.Items != 1 || after.SHA256 != hexSum || after.Bytes != len(res.body) {
				t.Errorf("the trail's row: %+v (%+v, %v), want the file's hash %s", last, after, err, hexSum)
			}
			if c.format != inspection.XLSX {
				return
			}
			wb, err := excelize.OpenReader(bytes.NewReader(res.body))
			if err != nil {
				t.Fatal(err)
			}
			defer wb.Close()
			for cell, want := range map[string]string{"A2": "circular " + f.circular.ID, "E2": f.circular.Title, "R2": "1"} {
				if got, _ := wb.GetCellValue(inspection.SheetRegister, cell); got != want {
					t.Errorf("Register!%s = %q, want %q", cell, got, want)
				}
			}
			if got, _ := wb.GetCellValue(inspection.SheetComments, "E2"); got != "Checked against the policy" {
				t.Errorf("Comments!E2 = %q", got)
			}
			if got, _ := wb.GetCellValue(inspection.SheetAbout, "B5"); !strings.Contains(got, "asha") {
				t.Errorf("generated by %q", got)
			}
		})
	}
}
