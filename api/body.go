package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"regpulse/internal/indian"
)

// maxBodyBytes bounds a JSON request body: the largest the accounts calls
// take (a preferences list naming every value) is well under 2 KiB.
const maxBodyBytes = 16 << 10

// decodeBody reads r's body into v strictly: the content type must be
// application/json (415), the body at most maxBodyBytes (413), one JSON
// object with no field v does not have and no trailing data (400).
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	return decodeBodyLimit(w, r, v, maxBodyBytes)
}

// decodeBodyLimit is decodeBody for a body of at most limit bytes (the
// text POST /ai/summarize takes is far larger than any accounts call's).
func decodeBodyLimit(w http.ResponseWriter, r *http.Request, v any, limit int64) error {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" || (params["charset"] != "" && !strings.EqualFold(params["charset"], "utf-8")) {
		return &Error{Status: http.StatusUnsupportedMediaType, Message: "send the body as JSON with Content-Type: application/json"}
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil {
		if err = dec.Decode(&struct{}{}); err == io.EOF {
			return nil
		}
		if err == nil {
			err = errors.New("trailing data")
		}
	}
	var tooBig *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		return &Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("the request body is over %s bytes", indian.Group(int64(limit)))}
	case errors.As(err, &typeErr) && typeErr.Field != "":
		return &Error{Status: http.StatusBadRequest, Message: "invalid field: " + typeErr.Field,
			Fields: map[string]string{typeErr.Field: "must be " + jsonKind(typeErr.Type.Kind().String())}}
	case errors.As(err, &typeErr):
		return &Error{Status: http.StatusBadRequest, Message: "the body must be a JSON object"}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &Error{Status: http.StatusBadRequest, Message: "unknown field: " + name, Fields: map[string]string{name: "unknown field"}}
	}
	return &Error{Status: http.StatusBadRequest, Message: "the body is not one well-formed JSON object"}
}

// noBody accepts a call that takes no body (a POST declared without
// one): an empty body whatever its Content-Type (fetch wrappers send
// application/json on every POST), or an empty JSON object; anything else
// is refused as decodeBody would.
func noBody(w http.ResponseWriter, r *http.Request) error {
	const limit = 1 << 10
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig): // rBodyNotTaken, which handle declares
		return &Error{Status: http.StatusRequestEntityTooLarge, Message: "this call takes no body"}
	case err != nil:
		return &Error{Status: http.StatusBadRequest, Message: "the body could not be read"}
	case len(bytes.TrimSpace(b)) == 0:
		return nil
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	return decodeBodyLimit(w, r, &struct{}{}, limit)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool", "ptr":
		return "true or false"
	case "slice":
		return "a list of strings"
	}
	return "of another type"
}
