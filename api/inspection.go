package api

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"mime"
	"net/http"
	"strconv"

	"regpulse/api/apispec"
	"regpulse/internal/inspection"
	"regpulse/internal/teams"
)

// The inspection export (issue 44): an organisation's whole register as
// a file to hand an inspector, XLSX or PDF (package inspection writes
// it). Any member who may read (an auditor until its access ends) may
// export; the export is made in memory, hashed, its row appended to the
// audit trail (export.create with format, items and SHA-256) in its own
// transaction, and only then sent, with the hash in its headers: the
// hash in the trail is the file's.

// Inspections is what the export needs of the store.
type Inspections interface {
	// InspectionRegister answers teams.ErrNoOrganisation for none.
	InspectionRegister(ctx context.Context, orgID string) (inspection.Register, error)
	RecordExport(ctx context.Context, by teams.Actor, format string, r inspection.Register, h inspection.Hashed) error
}

var inspectionParams = map[string]*apispec.Param{
	"ExportFormat": {Name: "format", In: "query", Required: true, RequiredMessage: "xlsx or pdf",
		Description: "The file's format: xlsx (a workbook: Register, Comments, Evidence, Audit trail, About) or pdf.",
		Schema:      apispec.Schema{Type: "string", Enum: inspection.Formats}},
}

type inspectionIn struct {
	organisationIn
	Format string `param:"ExportFormat"`
}

func inspectionRoutes() []*route {
	return []*route{
		signedIn(handle(opExportInspection, func(h *Handler, w http.ResponseWriter, r *http.Request, in inspectionIn) {
			h.exportInspection(w, r, in)
		})),
	}
}

var opExportInspection = &apispec.Operation{ID: "exportOrganisationRegister", Method: "GET", Path: "/organisations/{id}/export", Permission: "read",
	Summary: "Export the organisation's register for an inspection, as XLSX or PDF; any member may.",
	Description: "Every decision with its owner, dates, comments, evidence (each file's SHA-256) and the audit trail's rows about it, " +
		"and the trail's other rows; the PDF starts with a page saying what the export is (organisation, when, by whom, counts, the trail's head). " +
		"The export is recorded in the organisation's audit trail (export.create: format, items, sha256, bytes) before it is sent; " +
		"X-Export-Sha256 and Repr-Digest give the same hash. The same register exported at the same second gives the same bytes. " + roleNote,
	Responses: []*apispec.Response{
		{Status: 200, Description: "The register, as a file.",
			Content: []apispec.Content{
				{MediaType: inspection.ContentType(inspection.XLSX), Raw: map[string]any{"type": "string", "format": "binary"}},
				{MediaType: inspection.ContentType(inspection.PDF), Raw: map[string]any{"type": "string", "format": "binary"}}},
			Headers: []*apispec.Header{
				{Name: "Content-Disposition", Description: "attachment; filename=\"register-{organisation}-{YYYYMMDDTHHMMSSZ}.xlsx|pdf\".", Schema: apispec.Schema{Type: "string"}},
				{Name: "X-Export-Sha256", Description: "The file's SHA-256, lower-case hex: what the audit trail's export.create row keeps.", Schema: apispec.Schema{Type: "string"}},
				{Name: "Repr-Digest", Description: "sha-256=:{base64}: (RFC 9530): the same hash.", Schema: apispec.Schema{Type: "string"}}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rOrganisationNotFound.At(404),
		rInternalError.At(500)},
}

func (h *Handler) exportInspection(w http.ResponseWriter, r *http.Request, in inspectionIn) {
	ctx := r.Context()
	reg, err := h.store.InspectionRegister(ctx, in.ID)
	if err != nil {
		h.writeError(w, r, teamsError(err))
		return
	}
	at := h.now().UTC()
	file, err := inspection.Make(in.Format, reg, inspection.Meta{GeneratedAt: at, GeneratedBy: generatedBy(r, reg)})
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := h.store.RecordExport(ctx, actor(r, in.ID), in.Format, reg, file); err != nil {
		h.writeError(w, r, err)
		return
	}
	sum, _ := hex.DecodeString(file.SHA256)
	hdr := w.Header()
	hdr.Set("Content-Type", inspection.ContentType(in.Format))
	hdr.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": inspection.FileName(reg.Organisation, in.Format, at)}))
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Cache-Control", "private, no-store")
	hdr.Set("X-Export-Sha256", file.SHA256)
	hdr.Set("Repr-Digest", "sha-256=:"+base64.StdEncoding.EncodeToString(sum)+":")
	hdr.Set("Content-Length", strconv.Itoa(len(file.Data)))
	w.WriteHeader(http.StatusOK)
	w.Write(file.Data) //nolint:errcheck // the client went away
}

// generatedBy names who asked for an export: a member by name, an API
// key by its name and prefix.
func generatedBy(r *http.Request, reg inspection.Register) string {
	if k, ok := keyOf(r); ok {
		return "API key " + k.Name + " (" + k.Prefix + "…)"
	}
	return reg.Name(userOf(r).ID)
}
