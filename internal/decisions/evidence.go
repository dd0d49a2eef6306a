package decisions

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"regpulse/internal/catalog"
)

// Evidence (issue 44): what shows a decision was carried out, a file or
// a link, attached to an organisation's decision on a subject, and its
// review: pending until an admin or an active auditor accepts or
// rejects it (teams.CanReviewEvidence).

// MaxEvidenceBytes is the largest file of evidence: a scanned policy or
// a board note fits; a database dump does not belong here.
const MaxEvidenceBytes = 20 << 20

// The kinds of evidence.
const (
	EvidenceFile = "file"
	EvidenceLink = "link"
)

// EvidenceKinds are every kind.
var EvidenceKinds = []string{EvidenceFile, EvidenceLink}

// The review states of a piece of evidence.
const (
	EvidencePending  = "pending"
	EvidenceAccepted = "accepted"
	EvidenceRejected = "rejected"
)

// EvidenceStates are every review state; a review sets one of the last
// two.
var EvidenceStates = []string{EvidencePending, EvidenceAccepted, EvidenceRejected}

// The bounds of evidence's texts.
const (
	MaxEvidenceName = 255 // a file name, as file systems bound it
	MaxEvidenceLink = 2000
)

// Evidence is one piece of evidence on a decision: a file (its bytes are
// kept apart, read on their own) or a link.
type Evidence struct {
	ID             string `json:"id"`
	OrganisationID string `json:"organisationId"`
	Subject
	Kind string `json:"kind" enum:"EvidenceKind"`
	// Name, Size, SHA256, MediaType and ClientType are a file's: its
	// name as uploaded (made safe: no directories, no control
	// characters), its bytes' count and SHA-256 (hex), the type its
	// bytes sniff as (http.DetectContentType) and the type the client
	// said; empty (null, 0) for a link.
	Name       catalog.OptString `json:"name"`
	Size       int64             `json:"size"`
	SHA256     catalog.OptString `json:"sha256"`
	MediaType  catalog.OptString `json:"mediaType"`
	ClientType catalog.OptString `json:"clientType"`
	// Link is a link's http(s) URL; null for a file.
	Link    catalog.OptString `json:"link"`
	Note    catalog.OptString `json:"note"`
	AddedBy catalog.OptString `json:"addedBy"`
	AddedAt time.Time         `json:"addedAt"`
	// State is its review: pending, accepted or rejected, by ReviewedBy
	// at ReviewedAt, with ReviewNote (required to reject).
	State      string            `json:"state" enum:"EvidenceState"`
	ReviewedBy catalog.OptString `json:"reviewedBy"`
	ReviewedAt *time.Time        `json:"reviewedAt"`
	ReviewNote catalog.OptString `json:"reviewNote"`
}

// Errors of evidence.
var (
	ErrNoEvidence       = errors.New("no evidence of this organisation has that id")
	ErrEvidenceTooLarge = errors.New("the file is larger than 20 MB")
	ErrEvidenceEmpty    = errors.New("the file is empty")
)

// ReadFile reads an uploaded file from r, at most MaxEvidenceBytes
// (ErrEvidenceTooLarge beyond, found by reading one byte more), hashing
// it as it goes: the evidence it makes (ID, subject and who added it
// are the store's) and the bytes.
func ReadFile(r io.Reader, name, clientType string) (Evidence, []byte, error) {
	h := sha256.New()
	data, err := io.ReadAll(io.TeeReader(io.LimitReader(r, MaxEvidenceBytes+1), h))
	switch {
	case err != nil:
		return Evidence{}, nil, err
	case len(data) > MaxEvidenceBytes:
		return Evidence{}, nil, ErrEvidenceTooLarge
	case len(data) == 0:
		return Evidence{}, nil, ErrEvidenceEmpty
	}
	if mt, params, err := mime.ParseMediaType(clientType); err == nil {
		clientType = mime.FormatMediaType(mt, params)
	} else {
		clientType = ""
	}
	return Evidence{Kind: EvidenceFile, Name: catalog.OptString(SafeFileName(name)), Size: int64(len(data)),
		SHA256: catalog.OptString(hex.EncodeToString(h.Sum(nil))), MediaType: catalog.OptString(http.DetectContentType(data)),
		ClientType: catalog.OptString(clientType)}, data, nil
}

// SafeFileName is name without any directory (either slash), control
// characters or surrounding spaces, at most MaxEvidenceName bytes of
// whole characters; "file" when nothing is left.
func SafeFileName(name string) string {
	name = strings.ReplaceAll(name, `\`, "/")
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, path.Base("/"+name))
	name = strings.TrimSpace(name)
	for len(name) > MaxEvidenceName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" || name == "/" || name == "." || name == ".." {
		return "file"
	}
	return name
}

// CheckLink reports why link is not an http(s) URL with a host (as the
// catalog's links are checked), or "".
func CheckLink(link string) string {
	u, err := url.Parse(link)
	switch {
	case link == "":
		return "is required: an http(s) URL"
	case len(link) > MaxEvidenceLink:
		return "is too long"
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.ContainsFunc(link, unicode.IsSpace) || hasControl(link):
		return "must be an http(s) URL"
	}
	return ""
}

func hasControl(s string) bool { return strings.ContainsFunc(s, unicode.IsControl) }

// CheckReview reports what is wrong with a review to state with note,
// by field ("decision", "note"), or nil.
func CheckReview(state, note string) map[string]string {
	out := map[string]string{}
	switch state {
	case EvidenceAccepted:
	case EvidenceRejected:
		if strings.TrimSpace(note) == "" {
			out["note"] = "is required to reject: say what is missing"
		}
	default:
		out["decision"] = "must be accepted or rejected"
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
