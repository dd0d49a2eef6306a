package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"regpulse/internal/decisions"
	"regpulse/internal/teams"
)

func evidencePath(orgID string, s decisions.Subject) string {
	return "/organisations/" + orgID + "/decision/evidence?" + subjectQuery(s)
}

func evidenceFilePath(orgID, id string) string {
	return "/organisations/" + orgID + "/evidence/" + id + "/file"
}

func reviewPath(orgID, id string) string {
	return "/organisations/" + orgID + "/evidence/" + id + "/review"
}

// multipartBody is a multipart/form-data body with the part file (name,
// its Content-Type ctype, data) unless name is "", and the part note
// unless note is "", and its Content-Type.
func multipartBody(t testing.TB, name, ctype string, data []byte, note string) (string, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if note != "" {
		if err := mw.WriteField("note", note); err != nil {
			t.Fatal(err)
		}
	}
	if name != "" {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, name))
		h.Set("Content-Type", ctype)
		w, err := mw.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), mw.FormDataContentType()
}

// upload posts a file as evidence on org's decision on s.
func (f *decisionsFixture) upload(t testing.TB, p person, orgID string, s decisions.Subject, name, ctype string, data []byte) response {
	t.Helper()
	body, ct := multipartBody(t, name, ctype, data, "")
	return f.call(t, "POST", evidencePath(orgID, s), body, append(append([]string(nil), p.auth...), "Content-Type", ct)...)
}

// TestEvidence_Roles is the authorization table of the evidence calls:
// add (a link), list, download and review, each by each role (admin,
// member, viewer, auditor, an auditor whose access ended) on its own
// organisation and on another; another organisation's is a 404, never a
// 403.
func TestEvidence_Roles(t *testing.T) {
	f := newDecisionsFixture(t)
	admin, ravi := f.person(t, "asha"), f.person(t, "ravi")
	own, other := f.createOrg(t, admin, "Asha Payments"), f.createOrg(t, ravi, "Ravi Cards")
	callers := f.roleCallers(t, admin, own.ID)
	subject := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	files := map[string]string{} // an organisation's file's id
	for _, o := range []struct {
		org teams.Organisation
		by  person
	}{{own, admin}, {other, ravi}} {
		if res := f.call(t, "PUT", decisionPath(o.org.ID, subject), `{"applicability":"applicable","version":0}`, o.by.auth...); res.status != 200 {
			t.Fatalf("the decision: %d %s", res.status, res.body)
		}
		res := f.upload(t, o.by, o.org.ID, subject, "policy.txt", "text/plain", []byte("Our fraud policy, approved by the board."))
		if res.status != 201 {
			t.Fatalf("the file: %d %s", res.status, res.body)
		}
		files[o.org.ID] = jsonOf[decisions.Evidence](t, res).ID
	}
	f.advance(2 * time.Hour) // the "ended" auditor's access is over
	type cell struct{ own, other int }
	readers := map[string]cell{"admin": {200, 404}, "member": {200, 404}, "viewer": {200, 404}, "auditor": {200, 404}, "ended": {404, 404}}
	routes := []struct {
		name   string
		call   func(t *testing.T, p person, org teams.Organisation) response
		byRole map[string]cell
	}{
		{"POST /organisations/{id}/decision/evidence", func(t *testing.T, p person, org teams.Organisation) response {
			return f.call(t, "POST", evidencePath(org.ID, subject), `{"link":"https://intranet.example.com/fraud-policy","note":"the policy"}`, p.auth...)
		}, map[string]cell{"admin": {201, 404}, "member": {201, 404}, "viewer": {403, 404}, "auditor": {403, 404}, "ended": {404, 404}}},
		{"GET /organisations/{id}/decision/evidence", func(t *testing.T, p person, org teams.Organisation) response {
			return f.call(t, "GET", evidencePath(org.ID, subject), "", p.auth...)
		}, readers},
		{"GET /organisations/{id}/evidence/{evidence}/file", func(t *testing.T, p person, org teams.Organisation) response {
			return f.call(t, "GET", evidenceFilePath(org.ID, files[org.ID]), "", p.auth...)
		}, readers},
		{"POST /organisations/{id}/evidence/{evidence}/review", func(t *testing.T, p person, org teams.Organisation) response {
			return f.call(t, "POST", reviewPath(org.ID, files[org.ID]), `{"decision":"accepted"}`, p.auth...)
		}, map[string]cell{"admin": {200, 404}, "member": {403, 404}, "viewer": {403, 404}, "auditor": {200, 404}, "ended": {404, 404}}},
	}
	for _, rt := range routes {
		for _, role := range []string{"admin", "member", "viewer", "auditor", "ended"} {
			want := rt.byRole[role]
			t.Run(rt.name+"/"+role+"/own", func(t *testing.T) {
				if res := rt.call(t, callers[role], own); res.status != want.own {
					t.Errorf("%d %s, want %d", res.status, res.body, want.own)
				}
			})
			t.Run(rt.name+"/"+role+"/other", func(t *testing.T) {
				res := rt.call(t, callers[role], other)
				if res.status != want.other {
					t.Errorf("%d %s, want %d", res.status, res.body, want.other)
				}
				if res.status == 404 && !strings.Contains(string(res.body), "No organisation of yours") {
					t.Errorf("another organisation's answer names it: %s", res.body)
				}
			})
		}
		t.Run(rt.name+"/signed-out", func(t *testing.T) {
			if res := rt.call(t, person{}, own); res.status != 401 {
				t.Errorf("%d %s, want 401", res.status, res.body)
			}
		})
	}
	// The reviews were the admin's then the auditor's, each audited.
	rows, err := f.db.AuditSubject(t.Context(), own.ID, "evidence", files[own.ID])
	if err != nil {
		t.Fatal(err)
	}
	var actors []string
	for _, r := range rows {
		actors = append(actors, r.Action+" "+r.ActorID)
	}
	want := []string{"evidence.add " + admin.id, "evidence.review " + admin.id, "evidence.review " + callers["auditor"].id}
	if strings.Join(actors, ", ") != strings.Join(want, ", ") {
		t.Errorf("the file's audit rows %v, want %v", actors, want)
	}
}

// TestEvidence_Files: a file of exactly 20 MB is kept and one byte more
// refused with a 413; the download's bytes and headers; the bodies and
// links refused, and the reviews' rules.
func TestEvidence_Files(t *testing.T) {
	f := newDecisionsFixture(t)
	admin := f.person(t, "asha")
	org := f.createOrg(t, admin, "Asha Payments")
	subject := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	if res := f.call(t, "PUT", decisionPath(org.ID, subject), `{"applicability":"applicable","version":0}`, admin.auth...); res.status != 200 {
		t.Fatalf("the decision: %d %s", res.status, res.body)
	}
	// No decision on the subject: nothing to attach to, nothing to list.
	undecided := decisions.Subject{Type: decisions.SubjectCircular, ID: f.undated.ID}
	wantError(t, f.upload(t, admin, org.ID, undecided, "a.txt", "text/plain", []byte("a")), 404, nil)
	wantError(t, f.call(t, "GET", evidencePath(org.ID, undecided), "", admin.auth...), 404, nil)

	big := bytes.Repeat([]byte{'%', 'P', 'D', 'F', '-'}, decisions.MaxEvidenceBytes/5+1)[:decisions.MaxEvidenceBytes]
	res := f.upload(t, admin, org.ID, subject, "Board minutes \"final\" – März.pdf", "application/pdf", big)
	if res.status != 201 {
		t.Fatalf("exactly 20 MB: %d %.300s", res.status, res.body)
	}
	e := jsonOf[decisions.Evidence](t, res)
	sum := sha256.Sum256(big)
	if e.Size != decisions.MaxEvidenceBytes || string(e.SHA256) != hex.EncodeToString(sum[:]) || e.MediaType != "application/pdf" ||
		e.ClientType != "application/pdf" || e.Name != "Board minutes \"final\" – März.pdf" || e.State != decisions.EvidencePending || e.Kind != decisions.EvidenceFile {
		t.Errorf("the file: %#v", e)
	}
	tooBig := wantError(t, f.upload(t, admin, org.ID, subject, "big.pdf", "application/pdf", append(big, '!')), 413, nil)
	if tooBig.Fields["file"] == "" {
		t.Errorf("the 413 does not name the file: %+v", tooBig)
	}

	// The download: the bytes, as an attachment under the name, typed
	// as sniffed, never sniffed again, with the hash.
	res = f.call(t, "GET", evidenceFilePath(org.ID, e.ID), "", admin.auth...)
	if res.status != 200 || !bytes.Equal(res.body, big) {
		t.Fatalf("download: %d, %d bytes", res.status, len(res.body))
	}
	b64 := base64.StdEncoding.EncodeToString(sum[:])
	for name, want := range map[string]string{
		"Content-Type":           "application/pdf",
		"Content-Disposition":    `attachment; filename*=utf-8''Board%20minutes%20%22final%22%20%E2%80%93%20M%C3%A4rz.pdf`,
		"X-Content-Type-Options": "nosniff",
		"Repr-Digest":            "sha-256=:" + b64 + ":",
		"Digest":                 "sha-256=" + b64,
		"Content-Length":         fmt.Sprint(decisions.MaxEvidenceBytes),
	} {
		if got := res.header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	// A plain name is quoted; a directory in the name is dropped.
	f.advance(time.Second) // the list's order is the order added
	res = f.upload(t, admin, org.ID, subject, `..\..\etc\passwd`, "text/html", []byte("<html><script>alert(1)</script></html>"))
	if res.status != 201 {
		t.Fatalf("html: %d %s", res.status, res.body)
	}
	html := jsonOf[decisions.Evidence](t, res)
	res = f.call(t, "GET", evidenceFilePath(org.ID, html.ID), "", admin.auth...)
	if res.header.Get("Content-Disposition") != `attachment; filename=passwd` || res.header.Get("Content-Type") != "text/html; charset=utf-8" ||
		res.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("html download: %v", res.header)
	}

	// Bodies refused.
	body, ct := multipartBody(t, "", "", nil, "a note without a file")
	wantError(t, f.call(t, "POST", evidencePath(org.ID, subject), body, append(append([]string(nil), admin.auth...), "Content-Type", ct)...), 400, nil)
	wantError(t, f.upload(t, admin, org.ID, subject, "empty.txt", "text/plain", nil), 400, nil)
	wantError(t, f.call(t, "POST", evidencePath(org.ID, subject), "--x\r\nbroken", append(append([]string(nil), admin.auth...),
		"Content-Type", "multipart/form-data; boundary=y")...), 400, nil)
	wantError(t, f.call(t, "POST", evidencePath(org.ID, subject), "just text", append(append([]string(nil), admin.auth...), "Content-Type", "text/plain")...), 415, nil)
	for _, link := range []string{"ftp://example.com/a", "javascript:alert(1)", "https://", "/relative", "https://example.com/a b", ""} {
		t.Run("link "+link, func(t *testing.T) {
			e := wantError(t, f.call(t, "POST", evidencePath(org.ID, subject), bodyOf(EvidenceLinkRequest{Link: link}), admin.auth...), 400, nil)
			if e.Fields["link"] == "" {
				t.Errorf("the error does not name link: %+v", e)
			}
		})
	}
	f.advance(time.Second)
	res = f.call(t, "POST", evidencePath(org.ID, subject), bodyOf(EvidenceLinkRequest{Link: " http://intranet.example.com/a?b=c "}), admin.auth...)
	if res.status != 201 || jsonOf[decisions.Evidence](t, res).Link != "http://intranet.example.com/a?b=c" {
		t.Errorf("a link: %d %s", res.status, res.body)
	}
	link := jsonOf[decisions.Evidence](t, res)
	wantError(t, f.call(t, "GET", evidenceFilePath(org.ID, link.ID), "", admin.auth...), 404, nil)
	wantError(t, f.call(t, "GET", evidenceFilePath(org.ID, "no-such-id"), "", admin.auth...), 404, nil)
	wantError(t, f.call(t, "GET", evidenceFilePath(org.ID, e.ID)+"?x=1", "", admin.auth...), 400, nil)
	wantError(t, f.call(t, "GET", evidencePath(org.ID, subject)+"&x=1", "", admin.auth...), 400, nil)

	// The list: oldest first, links and files alike.
	res = f.call(t, "GET", evidencePath(org.ID, subject), "", admin.auth...)
	if list := jsonOf[[]decisions.Evidence](t, res); res.status != 200 || len(list) != 3 || list[0].ID != e.ID || list[2].ID != link.ID {
		t.Errorf("list: %d %s", res.status, res.body)
	}

	// Reviews.
	wantError(t, f.call(t, "POST", reviewPath(org.ID, e.ID), `{"decision":"rejected"}`, admin.auth...), 400, map[string]string{"note": "Is required to reject: say what is missing"})
	wantError(t, f.call(t, "POST", reviewPath(org.ID, e.ID), `{"decision":"pending"}`, admin.auth...), 400, map[string]string{"decision": "Must be accepted or rejected"})
	wantError(t, f.call(t, "POST", reviewPath(org.ID, e.ID), `{"decision":"accepted"}`, append(append([]string(nil), admin.auth...), "Content-Type", "text/plain")...), 415, nil)
	wantError(t, f.call(t, "POST", reviewPath(org.ID, e.ID), `{"decision":"accepted","note":"`+strings.Repeat("x", 17<<10)+`"}`, admin.auth...), 413, nil)
	wantError(t, f.call(t, "POST", reviewPath(org.ID, "no-such-id"), `{"decision":"accepted"}`, admin.auth...), 404, nil)
	res = f.call(t, "POST", reviewPath(org.ID, e.ID), `{"decision":"rejected","note":"Unsigned."}`, admin.auth...)
	if r := jsonOf[decisions.Evidence](t, res); res.status != 200 || r.State != decisions.EvidenceRejected || r.ReviewNote != "Unsigned." ||
		string(r.ReviewedBy) != admin.id || r.ReviewedAt == nil {
		t.Errorf("reject: %d %s", res.status, res.body)
	}
}

func TestSentAsStored(t *testing.T) {
	for path, want := range map[string]bool{
		"/api/organisations/o-1/evidence/e-1/file":   true,
		"/api/organisations/o-1/evidence//file":      false,
		"/api/organisations/o-1/decision/evidence":   false,
		"/api/organisations/o-1/evidence/e-1/review": false,
		"/organisations/o-1/evidence/e-1/file/x":     false,
		"/api/health":                                false,
		"/api/organisations/o-1/export":              true,
		"/api/organisations//export":                 false,
		"/api/organisations/o-1/export/x":            false,
	} {
		if got := SentAsStored(path); got != want {
			t.Errorf("SentAsStored(%q) = %v, want %v", path, got, want)
		}
	}
}
