package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"regpulse/internal/audit"
	"regpulse/internal/decisions"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

// TestEvidence: a file kept with its hash and read back byte for byte, a
// link, the list of a subject, another organisation's evidence not
// found, reviews (a re-review allowed) and the audit rows with their
// before and after.
func TestEvidence(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		// Each call a second later: the list is in the order added.
		var mu sync.Mutex
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { mu.Lock(); defer mu.Unlock(); now = now.Add(time.Second); return now }))
		asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
		if err != nil {
			t.Fatal(err)
		}
		other, err := db.CreateOrganisation(ctx, teams.Actor{UserID: ravi.ID}, "Ravi Cards", nil)
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID, RequestID: "req-1", ClientAddr: "203.0.113.9"}
		circ := decisions.Subject{Type: decisions.SubjectCircular, ID: "c-1"}
		// No decision yet: nothing to attach to.
		if _, err := db.AddEvidence(ctx, by, circ, decisions.Evidence{Kind: decisions.EvidenceLink, Link: "https://example.com/a"}, nil); !errors.Is(err, decisions.ErrNoDecision) {
			t.Fatalf("evidence without a decision: %v", err)
		}
		if _, err := db.PutDecision(ctx, by, decisions.Decision{Subject: circ, Applicability: decisions.Applicable}); err != nil {
			t.Fatal(err)
		}
		content := bytes.Repeat([]byte("%PDF-1.7 board minutes\n"), 1000)
		fe, data, err := decisions.ReadFile(bytes.NewReader(content), `C:\Users\asha\minutes.pdf`, "application/pdf")
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(content)
		file, err := db.AddEvidence(ctx, by, circ, fe, data)
		if err != nil || file.ID == "" || file.State != decisions.EvidencePending || string(file.SHA256) != hex.EncodeToString(sum[:]) ||
			file.Size != int64(len(content)) || file.Name != "minutes.pdf" || file.MediaType != "application/pdf" || file.AddedBy != "" && string(file.AddedBy) != asha.ID {
			t.Fatalf("add file: %+v, %v", file, err)
		}
		link, err := db.AddEvidence(ctx, by, circ, decisions.Evidence{Kind: decisions.EvidenceLink, Link: "https://intranet.example.com/policy", Note: "the policy"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		list, err := db.EvidenceList(ctx, org.ID, circ)
		if err != nil || len(list) != 2 || list[0].ID != file.ID || list[1].Link != "https://intranet.example.com/policy" || list[0].SHA256 != file.SHA256 {
			t.Fatalf("list: %#v, %v", list, err)
		}
		got, b, err := db.EvidenceFile(ctx, org.ID, file.ID)
		if err != nil || !bytes.Equal(b, content) || got.Name != "minutes.pdf" {
			t.Fatalf("file: %+v, %d bytes, %v", got, len(b), err)
		}
		if _, _, err := db.EvidenceFile(ctx, org.ID, link.ID); !errors.Is(err, decisions.ErrNoEvidence) {
			t.Errorf("a link's file: %v, want ErrNoEvidence", err)
		}
		if _, _, err := db.EvidenceFile(ctx, other.ID, file.ID); !errors.Is(err, decisions.ErrNoEvidence) {
			t.Errorf("another organisation's file: %v, want ErrNoEvidence", err)
		}
		if _, err := db.ReviewEvidence(ctx, teams.Actor{UserID: ravi.ID, OrganisationID: other.ID}, file.ID, decisions.EvidenceAccepted, ""); !errors.Is(err, decisions.ErrNoEvidence) {
			t.Errorf("another organisation's review: %v, want ErrNoEvidence", err)
		}
		if _, err := db.ReviewEvidence(ctx, by, file.ID, decisions.EvidenceRejected, " "); err == nil {
			t.Error("a rejection without a note was kept")
		}
		if _, err := db.ReviewEvidence(ctx, by, file.ID, decisions.EvidencePending, ""); err == nil {
			t.Error("a review back to pending was kept")
		}
		rev, err := db.ReviewEvidence(ctx, by, file.ID, decisions.EvidenceRejected, "The minutes are unsigned.")
		if err != nil || rev.State != decisions.EvidenceRejected || string(rev.ReviewedBy) != asha.ID || rev.ReviewedAt == nil || rev.ReviewNote != "The minutes are unsigned." {
			t.Fatalf("reject: %+v, %v", rev, err)
		}
		if rev, err = db.ReviewEvidence(ctx, by, file.ID, decisions.EvidenceAccepted, ""); err != nil || rev.State != decisions.EvidenceAccepted || rev.ReviewNote != "" {
			t.Fatalf("re-review: %+v, %v", rev, err)
		}
		if e, err := db.Evidence(ctx, org.ID, file.ID); err != nil || e.State != decisions.EvidenceAccepted || e.ReviewedAt == nil {
			t.Errorf("stored review: %+v, %v", e, err)
		}

		var actions []string
		for r, err := range db.AuditRows(ctx, org.ID) {
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(r.Action, "evidence.") {
				continue
			}
			actions = append(actions, r.Action)
			if r.RequestID != "req-1" || r.ClientAddr != "203.0.113.9" || r.SubjectType != "evidence" {
				t.Errorf("%s: request %q, client %q, subject type %q", r.Action, r.RequestID, r.ClientAddr, r.SubjectType)
			}
			switch {
			case r.Action == "evidence.add" && r.SubjectID == file.ID:
				for _, want := range []string{`"sha256":"` + string(file.SHA256) + `"`, `"size":23000`, `"name":"minutes.pdf"`} {
					if !strings.Contains(r.After, want) {
						t.Errorf("the file's add row lacks %s: %s", want, r.After)
					}
				}
			case r.Action == "evidence.add":
				if !strings.Contains(r.After, `"link":"https://intranet.example.com/policy"`) {
					t.Errorf("the link's add row: %s", r.After)
				}
			}
		}
		want := []string{"evidence.add", "evidence.add", "evidence.review", "evidence.review"}
		if strings.Join(actions, " ") != strings.Join(want, " ") {
			t.Fatalf("audit rows %v, want %v", actions, want)
		}
		rows, err := db.AuditSubject(ctx, org.ID, "evidence", file.ID)
		if err != nil || len(rows) != 3 {
			t.Fatalf("the file's rows: %d, %v", len(rows), err)
		}
		if r := rows[1]; !strings.Contains(r.Before, `"state":"pending"`) || !strings.Contains(r.After, `"state":"rejected"`) || !strings.Contains(r.After, "unsigned") {
			t.Errorf("the rejection's before and after: %s -> %s", r.Before, r.After)
		}
		if r := rows[2]; !strings.Contains(r.Before, `"state":"rejected"`) || !strings.Contains(r.Before, "unsigned") || !strings.Contains(r.After, `"state":"accepted"`) {
			t.Errorf("the re-review's before and after: %s -> %s", r.Before, r.After)
		}
		if rep, err := audit.Verify(db.AuditRows(ctx, org.ID)); err != nil || rep.Broken != nil {
			t.Errorf("verify: %+v, %v", rep, err)
		}
	})
}
