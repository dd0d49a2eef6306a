// Package inspection writes an organisation's register as a file an
// inspector can be handed (issue 44): every decision with its owner,
// dates, comments, evidence (with each file's SHA-256) and the rows of
// the audit trail about it, as XLSX (excelize) or PDF (fpdf). It holds
// no SQL (internal/store reads the register) and no HTTP (the API and
// the CLI hash the file and record the export in the trail).
//
// The output is a function of its inputs: the same Register and Meta
// give the same bytes (TestWrite_Deterministic), so an export's SHA-256
// identifies what was handed over.
package inspection

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"regpulse/internal/audit"
	"regpulse/internal/decisions"
	"regpulse/internal/teams"
)

// The formats.
const (
	XLSX = "xlsx"
	PDF  = "pdf"
)

// Formats are every format, as ?format= and --format name them.
var Formats = []string{XLSX, PDF}

// ErrFormat is a format that is none of Formats.
var ErrFormat = errors.New("the export's format must be one of: " + strings.Join(Formats, ", "))

// Register is what an export holds: the organisation, its decisions
// (each with its comments and evidence), its whole audit trail in
// sequence order, and the people they name.
type Register struct {
	Organisation teams.Organisation
	Items        []Item
	// Trail is every row of the organisation's chain, in order; each is
	// shown under the item it is about (ItemOf) and the rest (members,
	// invitations, earlier exports ...) after the items.
	Trail []audit.Row
	// People are the users the register names, by id: owners, deciders,
	// authors, reviewers, actors.
	People map[string]Person
}

// Item is one decision of the register with what hangs on it.
type Item struct {
	decisions.Decision
	// Title is the subject's title as the catalog has it now (a
	// circular's title, an obligation's text); "" when the catalog no
	// longer has it.
	Title    string
	Comments []decisions.Comment
	Evidence []decisions.Evidence
}

// Person is a user as the export names them.
type Person struct {
	Username string
	Name     string
}

// Meta is what the export says about itself.
type Meta struct {
	GeneratedAt time.Time
	// GeneratedBy names who asked for it: a member, or the command line.
	GeneratedBy string
}

// Name is how the register names user id: "Name (username)", the id
// itself for a user it does not know, "" for none.
func (r Register) Name(id string) string {
	if id == "" {
		return ""
	}
	p, ok := r.People[id]
	switch {
	case !ok:
		return id
	case strings.TrimSpace(p.Name) == "":
		return p.Username
	default:
		return strings.TrimSpace(p.Name) + " (" + p.Username + ")"
	}
}

// Trail rows' subject types for the register's items: a decision's row
// names its subject (decisions.Subject.String), a comment's and a piece
// of evidence's their id.
const (
	subjectDecision = "decision"
	subjectComment  = "comment"
	subjectEvidence = "evidence"
)

// ItemOf maps each row of the trail about an item (its decision, a
// comment or evidence on it) to the item's index in Items; the others
// are not in it.
func (r Register) ItemOf() map[int64]int {
	bySubject := map[string]int{}
	byComment := map[string]int{}
	byEvidence := map[string]int{}
	for i, it := range r.Items {
		bySubject[it.Subject.String()] = i
		for _, c := range it.Comments {
			byComment[c.ID] = i
		}
		for _, e := range it.Evidence {
			byEvidence[e.ID] = i
		}
	}
	out := map[int64]int{}
	for _, row := range r.Trail {
		var i int
		var ok bool
		switch row.SubjectType {
		case subjectDecision:
			i, ok = bySubject[row.SubjectID]
		case subjectComment:
			i, ok = byComment[row.SubjectID]
		case subjectEvidence:
			i, ok = byEvidence[row.SubjectID]
		}
		if ok {
			out[row.Seq] = i
		}
	}
	return out
}

// Counts are the register's sizes, as the title page and the About
// sheet give them.
type Counts struct {
	Items, Comments, Evidence, TrailRows int
}

// Counts counts r.
func (r Register) Counts() Counts {
	c := Counts{Items: len(r.Items), TrailRows: len(r.Trail)}
	for _, it := range r.Items {
		c.Comments += len(it.Comments)
		c.Evidence += len(it.Evidence)
	}
	return c
}

// Head is the trail's last row as the export saw it: the chain the
// export shows ends there (audit verify prints the same).
func (r Register) Head() audit.Head {
	if len(r.Trail) == 0 {
		return audit.Start
	}
	last := r.Trail[len(r.Trail)-1]
	return audit.Head{Seq: last.Seq, Hash: last.Hash}
}

// Write writes r in format to w.
func Write(w io.Writer, format string, r Register, m Meta) error {
	switch format {
	case XLSX:
		return WriteXLSX(w, r, m)
	case PDF:
		return WritePDF(w, r, m)
	}
	return ErrFormat
}

// ContentType is format's media type.
func ContentType(format string) string {
	if format == XLSX {
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	}
	return "application/pdf"
}

// FileName is the export's file name: the organisation's name made
// safe, the time it was made (UTC, to the second) and the format.
func FileName(org teams.Organisation, format string, at time.Time) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		return '-'
	}, org.Name)
	name = strings.Trim(strings.Join(slices.DeleteFunc(strings.Split(name, "-"), func(s string) bool { return s == "" }), "-"), "-")
	if name == "" {
		name = "organisation"
	}
	if len(name) > 60 {
		name = strings.TrimRight(name[:60], "-")
	}
	return fmt.Sprintf("register-%s-%s.%s", name, at.UTC().Format("20060102T150405Z"), format)
}

// Hashed is an export made: its bytes and their SHA-256 (hex).
type Hashed struct {
	Data   []byte
	SHA256 string
}

// Make writes r in format into memory and hashes it: the hash goes into
// the response's headers and the trail before the bytes are sent.
func Make(format string, r Register, m Meta) (Hashed, error) {
	var b bytes.Buffer
	if err := Write(&b, format, r, m); err != nil {
		return Hashed{}, err
	}
	data := b.Bytes()
	sum := sha256.Sum256(data)
	return Hashed{Data: data, SHA256: hex.EncodeToString(sum[:])}, nil
}

// Entry is the audit trail's row of an export by by: its format, how
// many items it holds and its SHA-256, which is the file's.
func Entry(by teams.Actor, format string, r Register, h Hashed) audit.Entry {
	return audit.Entry{OrgID: by.OrganisationID, ActorID: by.AuditID(), Action: "export.create", SubjectType: "organisation",
		SubjectID: by.OrganisationID, After: map[string]any{"format": format, "items": len(r.Items), "sha256": h.SHA256, "bytes": len(h.Data),
			"trailHead": r.Head().Seq},
		RequestID: by.RequestID, ClientAddr: by.ClientAddr}
}
