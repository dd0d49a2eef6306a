// Package audit is the audit trail's machinery (issue 44): the row every
// state-changing call of an organisation writes, its hash chain, and the
// check of a chain. The store appends and reads the rows
// (internal/store/audit.go); this package decides what a row is and
// when a chain is whole, without SQL.
//
// A row's hash is SHA-256 over its encoding (Encode), which holds every
// field but the hash itself, the previous row's hash included: changing
// any stored value of a row, removing a row or reordering rows breaks
// the chain at that row or the next, and Verify names the first row
// where it breaks. Each organisation has its own chain, numbered 1, 2, 3
// ... without gaps; the first row chains from Genesis.
//
// The encoding is versioned (Version) and must never change for rows
// already written: TestHash_Golden holds one row's hash fixed. A new
// encoding would be a new version, chosen per row by its version field.
package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Version names the encoding of Encode; it is the encoding's first field.
const Version = "regpulse-audit-v1"

// Genesis is the previous hash of an organisation's first row: 64 zeros.
const Genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// TimeLayout is how a row's time is encoded and stored: UTC, to the
// microsecond, fixed width (text order is time order).
const TimeLayout = "2006-01-02T15:04:05.000000Z"

// Entry is what a writer says about its change; Next makes the Row.
type Entry struct {
	OrgID   string // the organisation whose chain the row joins
	ActorID string // the user who made the change ("" for the system)
	Action  string // what was done, "area.verb": "decision.update"
	// SubjectType and SubjectID name what was changed: "decision", its id.
	SubjectType, SubjectID string
	// Before and After are the subject's values around the change (nil
	// for none: before a creation, after a deletion), stored as canonical
	// JSON (Canonical).
	Before, After any
	RequestID     string // the HTTP request's id (X-Request-Id)
	ClientAddr    string // the client's address, as the rate limits see it
}

// Row is one stored row of the trail.
type Row struct {
	ID          string // a UUID (version 7), made when the row is
	OrgID       string
	Seq         int64 // 1, 2, 3 ... per organisation
	ActorID     string
	Action      string
	SubjectType string
	SubjectID   string
	Before      string // canonical JSON; "null" for none
	After       string
	At          time.Time // UTC, truncated to the microsecond
	RequestID   string
	ClientAddr  string
	PrevHash    string // the previous row's Hash, or Genesis; lower-case hex
	Hash        string // SHA-256 of Encode(), lower-case hex
}

// Head is where an organisation's chain ends: its last row's sequence
// number and hash, or 0 and Genesis for an empty chain.
type Head struct {
	Seq  int64
	Hash string
}

// Start is the head of an empty chain.
var Start = Head{Seq: 0, Hash: Genesis}

// Next makes the row that follows head for e at time at, its id new and
// its hash computed. It checks what the stores could not hold alike
// (text that is not UTF-8, or holds NUL: PostgreSQL refuses both).
func Next(head Head, e Entry, at time.Time) (Row, error) {
	before, err := Canonical(e.Before)
	if err != nil {
		return Row{}, fmt.Errorf("audit: before: %w", err)
	}
	after, err := Canonical(e.After)
	if err != nil {
		return Row{}, fmt.Errorf("audit: after: %w", err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Row{}, err
	}
	r := Row{
		ID: id.String(), OrgID: e.OrgID, Seq: head.Seq + 1, ActorID: e.ActorID, Action: e.Action,
		SubjectType: e.SubjectType, SubjectID: e.SubjectID, Before: before, After: after,
		At: at.UTC().Truncate(time.Microsecond), RequestID: e.RequestID, ClientAddr: e.ClientAddr,
		PrevHash: head.Hash,
	}
	if err := r.check(); err != nil {
		return Row{}, err
	}
	r.Hash = r.ComputeHash()
	return r, nil
}

// check refuses a row the stores could not keep byte for byte, or that
// names no organisation or action.
func (r Row) check() error {
	if r.OrgID == "" {
		return errors.New("audit: a row needs its organisation")
	}
	if r.Action == "" {
		return errors.New("audit: a row needs its action")
	}
	for _, f := range []struct{ name, v string }{
		{"organisation", r.OrgID}, {"actor", r.ActorID}, {"action", r.Action}, {"subject type", r.SubjectType},
		{"subject id", r.SubjectID}, {"before", r.Before}, {"after", r.After}, {"request id", r.RequestID},
		{"client address", r.ClientAddr},
	} {
		if !utf8.ValidString(f.v) || bytes.IndexByte([]byte(f.v), 0) >= 0 {
			return fmt.Errorf("audit: the %s is not UTF-8 text without NUL", f.name)
		}
	}
	return nil
}

// Canonical is v as canonical JSON: encoding/json's output of v decoded
// and encoded again, so objects' keys are sorted (bytewise), there is no
// insignificant space, numbers keep their digits, and <, > and & are not
// escaped. nil is "null". A json.RawMessage is canonicalised too.
func Canonical(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return "", err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(generic); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// Encode is the bytes a row's hash is taken over, version 1: the fields
// below in this order, each as a netstring (its length in bytes in
// decimal, a colon, the bytes, a comma), so no field can run into the
// next:
//
//	version ("regpulse-audit-v1"), id, organisation id, sequence number
//	(decimal), actor id, action, subject type, subject id, before, after
//	(canonical JSON as stored), at (TimeLayout), request id, client
//	address, previous hash (lower-case hex).
func (r Row) Encode() []byte {
	return r.appendEncoding(make([]byte, 0, 256+len(r.Before)+len(r.After)))
}

func (r Row) appendEncoding(b []byte) []byte {
	b = appendField(b, Version)
	b = appendField(b, r.ID)
	b = appendField(b, r.OrgID)
	var num [20]byte
	b = appendFieldBytes(b, strconv.AppendInt(num[:0], r.Seq, 10))
	b = appendField(b, r.ActorID)
	b = appendField(b, r.Action)
	b = appendField(b, r.SubjectType)
	b = appendField(b, r.SubjectID)
	b = appendField(b, r.Before)
	b = appendField(b, r.After)
	var at [len(TimeLayout) + 8]byte
	b = appendFieldBytes(b, r.At.UTC().AppendFormat(at[:0], TimeLayout))
	b = appendField(b, r.RequestID)
	b = appendField(b, r.ClientAddr)
	return appendField(b, r.PrevHash)
}

// appendField appends f as a netstring: "len:f,".
func appendField(b []byte, f string) []byte {
	b = strconv.AppendInt(b, int64(len(f)), 10)
	b = append(b, ':')
	b = append(b, f...)
	return append(b, ',')
}

func appendFieldBytes(b, f []byte) []byte {
	b = strconv.AppendInt(b, int64(len(f)), 10)
	b = append(b, ':')
	b = append(b, f...)
	return append(b, ',')
}

// ComputeHash is the row's hash as it should be: SHA-256 of Encode, in
// lower-case hex.
func (r Row) ComputeHash() string {
	var sum [2 * sha256.Size]byte
	return string(r.hexHash(&sum))
}

// hexHash writes the row's hash in hex into sum, without allocating for
// a row of usual size (Verify hashes a million).
func (r Row) hexHash(sum *[2 * sha256.Size]byte) []byte {
	var buf [1024]byte
	h := sha256.Sum256(r.appendEncoding(buf[:0]))
	hex.Encode(sum[:], h[:])
	return sum[:]
}

// Break is the first row at which a chain is not whole, and why.
type Break struct {
	Row    Row
	Reason string
}

// Report is what Verify found in one organisation's chain.
type Report struct {
	OrgID string
	Rows  int64 // rows checked, up to and including a broken one
	Head  Head  // the last whole row's sequence number and hash
	// Broken is the first broken row, nil when the chain is whole.
	Broken *Break
}

// Verify reads one organisation's rows in sequence order and checks
// each: its organisation is the first row's, its sequence number follows
// the previous row's (1 first), its previous hash is the previous row's
// hash (Genesis first), and its hash is the hash of its fields. It stops
// at the first row that fails one (Report.Broken). An error is the rows'
// own (reading them failed), not a broken chain.
//
// A chain cut short at its end looks whole: compare Report.Head with a
// head recorded earlier (regpulse audit verify prints it) to see that.
func Verify(rows iter.Seq2[Row, error]) (Report, error) {
	var rep Report
	rep.Head = Start
	for r, err := range rows {
		if err != nil {
			return rep, err
		}
		rep.Rows++
		if rep.Rows == 1 {
			rep.OrgID = r.OrgID
		}
		if reason := rep.link(r); reason != "" {
			rep.Broken = &Break{Row: r, Reason: reason}
			return rep, nil
		}
		rep.Head = Head{Seq: r.Seq, Hash: r.Hash}
	}
	return rep, nil
}

// link is why r does not follow the chain so far, "" when it does.
func (rep *Report) link(r Row) string {
	switch {
	case r.OrgID != rep.OrgID:
		return fmt.Sprintf("belongs to organisation %q, not %q", r.OrgID, rep.OrgID)
	case r.Seq != rep.Head.Seq+1:
		if r.Seq > rep.Head.Seq+1 {
			return fmt.Sprintf("sequence gap: row %d follows row %d (rows missing)", r.Seq, rep.Head.Seq)
		}
		return fmt.Sprintf("sequence out of order: row %d follows row %d", r.Seq, rep.Head.Seq)
	case r.PrevHash != rep.Head.Hash:
		if rep.Head.Seq == 0 {
			return "previous hash is not the genesis value"
		}
		return fmt.Sprintf("previous hash does not match row %d's hash (row %d was rewritten, or this link was)", rep.Head.Seq, rep.Head.Seq)
	case !r.hashMatches():
		return "hash does not match the row's contents (the row was changed)"
	}
	return ""
}

// hashMatches reports whether r.Hash is the hash of r's fields.
func (r Row) hashMatches() bool {
	var sum [2 * sha256.Size]byte
	return string(r.hexHash(&sum)) == r.Hash
}

// VerifyAll verifies each of orgs' chains (rows gives one organisation's
// rows in sequence order), workers at a time: the chains are
// independent, and a million rows take the hashing and the reading of
// every one. The reports are in orgs' order; the error is the first
// organisation's whose rows could not be read.
func VerifyAll(orgs []string, rows func(org string) iter.Seq2[Row, error], workers int) ([]Report, error) {
	reports := make([]Report, len(orgs))
	errs := make([]error, len(orgs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, len(orgs))) {
		wg.Go(func() {
			for i := range next {
				reports[i], errs[i] = Verify(rows(orgs[i]))
				if reports[i].OrgID == "" {
					reports[i].OrgID = orgs[i] // no rows
				}
			}
		})
	}
	for i := range orgs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return reports, fmt.Errorf("organisation %s: %w", orgs[i], err)
		}
	}
	return reports, nil
}
