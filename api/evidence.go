package api

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/teams"
)

// Evidence (issue 44): files and links that show a decision was carried
// out, attached by an admin or a member, downloaded by any member,
// accepted or rejected by an admin or an active auditor
// (teams.CanReviewEvidence). Evidence is added to a decision named like
// the decision calls name it (type, subject, provision in the query);
// once added, a piece is named by its id.

// Evidence is what the evidence calls need of the store. Each change
// takes the teams.Actor, for the audit trail.
type Evidence interface {
	// AddEvidence and EvidenceList answer decisions.ErrNoDecision when
	// the organisation has no decision on the subject.
	AddEvidence(ctx context.Context, by teams.Actor, subject decisions.Subject, e decisions.Evidence, data []byte) (decisions.Evidence, error)
	EvidenceList(ctx context.Context, orgID string, subject decisions.Subject) ([]decisions.Evidence, error)
	// EvidenceFile and ReviewEvidence answer decisions.ErrNoEvidence for
	// none of that id in the organisation (EvidenceFile: or a link).
	EvidenceFile(ctx context.Context, orgID, id string) (decisions.Evidence, []byte, error)
	ReviewEvidence(ctx context.Context, by teams.Actor, id, state, note string) (decisions.Evidence, error)
}

type evidenceIn struct {
	organisationIn
	Evidence string `param:"EvidenceID"`
}

// Request bodies of the evidence calls.
type (
	// EvidenceLinkRequest is POST /organisations/{id}/decision/evidence's
	// JSON body: a link.
	EvidenceLinkRequest struct {
		Link string `json:"link" check:"evidenceLink"`
		Note string `json:"note,omitempty" check:"decisionNote"`
	}
	// EvidenceReviewRequest is POST
	// /organisations/{id}/evidence/{evidence}/review's body.
	EvidenceReviewRequest struct {
		Decision string `json:"decision" check:"reviewDecision"`
		Note     string `json:"note,omitempty" check:"decisionNote"`
	}
)

func evidenceRoutes() []*route {
	return []*route{
		signedIn(handle(opAddEvidence, func(h *Handler, w http.ResponseWriter, r *http.Request, in subjectIn) { h.addEvidence(w, r, in) })),
		signedIn(handle(opListEvidence, func(h *Handler, w http.ResponseWriter, r *http.Request, in subjectIn) {
			s, ok := h.subjectOf(w, r, in, teams.CanRead)
			if !ok {
				return
			}
			list, err := h.store.EvidenceList(r.Context(), in.ID, s)
			if err != nil {
				h.writeError(w, r, evidenceError(err))
				return
			}
			writeJSON(w, http.StatusOK, list)
		})),
		signedIn(handle(opEvidenceFile, func(h *Handler, w http.ResponseWriter, r *http.Request, in evidenceIn) { h.evidenceFile(w, r, in) })),
		signedIn(handle(opReviewEvidence, func(h *Handler, w http.ResponseWriter, r *http.Request, in evidenceIn) { h.reviewEvidence(w, r, in) })),
	}
}

var (
	rNoEvidence = &apispec.Response{Component: "NoEvidence",
		Description: "No organisation of the signed-in user's has that id, or it has no evidence of that id.",
		Content:     jsonError()}
	rNotReviewer = &apispec.Response{Component: "NotReviewer",
		Description: "A member of the organisation whose role may not review evidence: an admin or an auditor (until its access ends) accepts or rejects it.",
		Content:     jsonError()}
)

var evidenceFileBody = map[string]any{"type": "object", "required": []any{"file"}, "properties": map[string]any{
	"file": map[string]any{"type": "string", "format": "binary", "description": "The file, of any type, at most 20 MB (20971520 bytes)."},
	"note": map[string]any{"type": "string", "maxLength": decisions.MaxNote, "description": "What the file shows (optional)."}}}

var opAddEvidence = &apispec.Operation{ID: "addEvidence", Method: "POST", Path: "/organisations/{id}/decision/evidence",
	Summary: "Attach evidence to the organisation's decision on a subject: a file or a link (admins and members)." + subjectNote,
	Description: "A file: multipart/form-data with the part file (any type, at most 20 MB) and, optionally, note; the answer has its name (without any directory), size, sha256 (hex), " +
		"mediaType (sniffed from its bytes) and clientType (what the client said). A link: JSON {link, note?}, link an http(s) URL. The evidence is pending until an admin or an auditor reviews it.",
	Body: &apispec.Body{Required: true, Content: []apispec.Content{
		{MediaType: "multipart/form-data", Raw: evidenceFileBody},
		{MediaType: "application/json", Type: reflect.TypeFor[EvidenceLinkRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Attached, pending review.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[decisions.Evidence]()}}},
		{Status: 400, Description: "A JSON body that is malformed or whose link is not an http(s) URL; a multipart body that is malformed, has no part file or an empty one; fields names each one.", Content: jsonError()},
		rUnauthorized.At(401),
		rNotDecider.At(403),
		rNoDecision.At(404),
		{Status: 413, Description: "The file is over 20 MB, or a JSON body over 16 KiB.", Content: jsonError()},
		{Status: 415, Description: "The body is neither multipart/form-data nor application/json.", Content: jsonError()},
		rInternalError.At(500)},
}

var opListEvidence = &apispec.Operation{ID: "listEvidence", Method: "GET", Path: "/organisations/{id}/decision/evidence",
	Summary: "The evidence on the organisation's decision on a subject, oldest first, each with its review; any member may read it." + subjectNote,
	Responses: []*apispec.Response{
		{Status: 200, Description: "The evidence.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]decisions.Evidence]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rNoDecision.At(404),
		rInternalError.At(500)},
}

var opEvidenceFile = &apispec.Operation{ID: "getEvidenceFile", Method: "GET", Path: "/organisations/{id}/evidence/{evidence}/file",
	Summary:     "Download a file of evidence; any member may.",
	Description: "The bytes as uploaded, as an attachment under their file name, typed as they sniff (mediaType), with their SHA-256 in Repr-Digest (and Digest, for older clients).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The file.", Content: []apispec.Content{{MediaType: "*/*", Raw: map[string]any{"type": "string", "format": "binary"}}},
			Headers: []*apispec.Header{
				{Name: "Content-Disposition", Description: "attachment; filename=\"...\" (non-ASCII names as filename*=utf-8''...): the file's name as uploaded.", Schema: apispec.Schema{Type: "string"}},
				{Name: "X-Content-Type-Options", Description: "nosniff: the browser keeps the type given.", Schema: apispec.Schema{Type: "string", Enum: []string{"nosniff"}}},
				{Name: "Repr-Digest", Description: "sha-256=:{base64}: (RFC 9530): the file's SHA-256.", Schema: apispec.Schema{Type: "string"}},
				{Name: "Digest", Description: "sha-256={base64} (RFC 3230, superseded by Repr-Digest): the same hash.", Schema: apispec.Schema{Type: "string"}}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		{Status: 404, Description: "No organisation of the signed-in user's has that id, or it has no file of evidence of that id (a link has none).", Content: jsonError()},
		rInternalError.At(500)},
}

var opReviewEvidence = &apispec.Operation{ID: "reviewEvidence", Method: "POST", Path: "/organisations/{id}/evidence/{evidence}/review",
	Summary:     "Accept or reject a piece of evidence (admins and auditors).",
	Description: "The body: decision, accepted or rejected, and note (required to reject: what is missing). A piece already reviewed may be reviewed again; the audit trail keeps each review's before and after.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[EvidenceReviewRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Reviewed.", Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[decisions.Evidence]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rNotReviewer.At(403),
		rNoEvidence.At(404),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

// evidenceError gives evidence's errors their status.
func evidenceError(err error) error {
	if errors.Is(err, decisions.ErrNoEvidence) {
		return errorStatus(http.StatusNotFound, capitalise(decisions.ErrNoEvidence.Error()))
	}
	return decisionsError(err)
}

// evidenceSlack is room for the multipart envelope (the parts' headers,
// a note) around a file of decisions.MaxEvidenceBytes.
const evidenceSlack = 64 << 10

// evidenceReadTime is how long an evidence file's upload may take: 20 MB
// at 40 KB/s.
const evidenceReadTime = 10 * time.Minute

func (h *Handler) addEvidence(w http.ResponseWriter, r *http.Request, in subjectIn) {
	s, ok := h.subjectOf(w, r, in, teams.CanDecide)
	if !ok {
		return
	}
	var e decisions.Evidence
	var data []byte
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		// The server's read timeout is sized for 10 MB documents; a file
		// of 20 MB from a member already signed in and allowed to add it
		// gets longer (an error: a server without deadlines, as in tests).
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(evidenceReadTime))
		var err error
		if e, data, err = readEvidenceFile(w, r); err != nil {
			h.writeError(w, r, err)
			return
		}
	} else {
		var req EvidenceLinkRequest
		if err := decodeBody(w, r, &req); err != nil {
			h.writeError(w, r, err)
			return
		}
		f := fieldErrors{}
		checkFields(f, &req)
		if msg := decisions.CheckLink(req.Link); msg != "" {
			f.add("link", capitalise(msg))
		}
		if err := f.err(); err != nil {
			h.writeError(w, r, err)
			return
		}
		e = decisions.Evidence{Kind: decisions.EvidenceLink, Link: catalog.OptString(req.Link), Note: catalog.OptString(req.Note)}
	}
	e, err := h.store.AddEvidence(r.Context(), actor(r, in.ID), s, e, data)
	if err != nil {
		h.writeError(w, r, evidenceError(err))
		return
	}
	writeJSON(w, http.StatusCreated, e)
}

// readEvidenceFile reads a multipart body's parts file and note as a
// stream: the body at most a file's limit and its envelope
// (http.MaxBytesReader), the file at most decisions.MaxEvidenceBytes,
// found by reading one byte more, hashed as it is read
// (decisions.ReadFile).
func readEvidenceFile(w http.ResponseWriter, r *http.Request) (decisions.Evidence, []byte, error) {
	fileErr := func(status int, msg string) error {
		return &Error{Status: status, Message: msg, Fields: map[string]string{"file": msg}}
	}
	tooLarge := fileErr(http.StatusRequestEntityTooLarge, "The file is larger than 20 MB.")
	malformed := fileErr(http.StatusBadRequest, "The multipart body is malformed.")
	if r.ContentLength > decisions.MaxEvidenceBytes+evidenceSlack {
		return decisions.Evidence{}, nil, tooLarge
	}
	r.Body = http.MaxBytesReader(w, r.Body, decisions.MaxEvidenceBytes+evidenceSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return decisions.Evidence{}, nil, malformed
	}
	var e decisions.Evidence
	var data []byte
	var note string
	for {
		part, err := mr.NextPart()
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			return e, nil, tooLarge
		case err == io.EOF && data == nil:
			return e, nil, fileErr(http.StatusBadRequest, "No file was uploaded (multipart part \"file\").")
		case err == io.EOF:
			f := fieldErrors{}
			if msg, bad := checkRule(rules["decisionNote"], strings.TrimSpace(note)); bad {
				f.add("note", msg)
			}
			if err := f.err(); err != nil {
				return e, nil, err
			}
			e.Note = catalog.OptString(strings.TrimSpace(note))
			return e, data, nil
		case err != nil:
			return e, nil, malformed
		}
		switch part.FormName() {
		case "file":
			if data != nil {
				part.Close()
				return e, nil, fileErr(http.StatusBadRequest, "One file at a time: the part \"file\" is repeated.")
			}
			e, data, err = decisions.ReadFile(part, part.FileName(), part.Header.Get("Content-Type"))
			part.Close()
			switch {
			case errors.As(err, &mbe), errors.Is(err, decisions.ErrEvidenceTooLarge):
				return e, nil, tooLarge
			case errors.Is(err, decisions.ErrEvidenceEmpty):
				return e, nil, fileErr(http.StatusBadRequest, "The file is empty.")
			case err != nil:
				return e, nil, fileErr(http.StatusBadRequest, "The upload was cut off.")
			}
		case "note":
			b, err := io.ReadAll(io.LimitReader(part, 4*decisions.MaxNote+1))
			part.Close()
			if errors.As(err, &mbe) {
				return e, nil, tooLarge
			}
			if err != nil {
				return e, nil, malformed
			}
			note = string(b)
		default:
			part.Close()
		}
	}
}

func (h *Handler) evidenceFile(w http.ResponseWriter, r *http.Request, in evidenceIn) {
	if _, err := h.orgMember(r, in.ID, teams.CanRead); err != nil {
		h.writeError(w, r, err)
		return
	}
	e, data, err := h.store.EvidenceFile(r.Context(), in.ID, in.Evidence)
	if err != nil {
		h.writeError(w, r, evidenceError(err))
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", string(e.MediaType))
	// FormatMediaType quotes the name, or encodes it (RFC 2231) when it
	// is not plain ASCII: no name can add a parameter or a header.
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": string(e.Name)})
	if disposition == "" {
		disposition = "attachment"
	}
	hdr.Set("Content-Disposition", disposition)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Cache-Control", "private, no-store")
	if sum, err := hex.DecodeString(string(e.SHA256)); err == nil {
		b64 := base64.StdEncoding.EncodeToString(sum)
		hdr.Set("Repr-Digest", "sha-256=:"+b64+":")
		hdr.Set("Digest", "sha-256="+b64)
	}
	hdr.Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(data) //nolint:errcheck // the client went away
	}
}

func (h *Handler) reviewEvidence(w http.ResponseWriter, r *http.Request, in evidenceIn) {
	if _, err := h.orgMember(r, in.ID, teams.CanReviewEvidence); err != nil {
		h.writeError(w, r, err)
		return
	}
	var req EvidenceReviewRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	for field, msg := range decisions.CheckReview(req.Decision, req.Note) {
		f.add(field, capitalise(msg))
	}
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	e, err := h.store.ReviewEvidence(r.Context(), actor(r, in.ID), in.Evidence, req.Decision, req.Note)
	if err != nil {
		h.writeError(w, r, evidenceError(err))
		return
	}
	writeJSON(w, http.StatusOK, e)
}

// SentAsStored reports whether path (the server's, /api/...) is the
// download of a file of evidence or an organisation's export
// (inspection.go): a server that compresses what it sends must send
// those as they are, since their Repr-Digest is of the bytes made (and
// a file is no smaller zipped twice).
func SentAsStored(path string) bool {
	seg := strings.Split(strings.TrimPrefix(path, "/api"), "/")
	org := len(seg) >= 4 && seg[0] == "" && seg[1] == "organisations" && seg[2] != ""
	return org && len(seg) == 6 && seg[3] == "evidence" && seg[4] != "" && seg[5] == "file" ||
		org && len(seg) == 4 && seg[3] == "export"
}
