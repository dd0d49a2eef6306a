// Package cms is the contract of the editors' web UI's backend: Decap
// CMS's proxy protocol (one URL, {action, params}), who asks, and the
// errors with the status to send. The API depends on this contract only;
// internal/cms/cmsrepo answers it over a git clone or a working tree, so
// a binary that serves no CMS (the API's function) links no git.
package cms

import (
	"context"
	"encoding/json"
	"fmt"
)

// Roles a person may hold in the CMS. A reviewer may do all an editor
// does and also publish, but never a change they wrote themselves: the
// two-person rule for compliance text.
const (
	RoleEditor   = "editor"
	RoleReviewer = "reviewer"
)

// Roles are the allowed roles, in order of what they may do.
var Roles = []string{RoleEditor, RoleReviewer}

// Person is who asks: the signed-in account and its CMS role ("" when it
// has none: every action is then refused with 403).
type Person struct {
	ID    string // the account's id
	Name  string // "First Last", or the username when there is no name
	Email string
	Role  string // RoleEditor, RoleReviewer or ""
}

// Request is the body Decap's proxy backend posts.
type Request struct {
	Action string          `json:"action"`
	Params json.RawMessage `json:"params"`
}

// Backend answers the proxy protocol's actions. The answer is marshalled
// as JSON; an error that is an *Error carries its status, any other is a
// 500.
type Backend interface {
	Do(ctx context.Context, who Person, req Request) (any, error)
}

// Error is a refused action: Status is the HTTP status (400 a bad path or
// request, 403 a role that may not, 404 no such entry, 409 a conflict,
// 413 media too large, 415 a media type not allowed, 422 content the
// loader refuses, 502 a push the remote refused), Message is what the CMS
// shows the editor (Decap shows the body's "error").
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf makes an *Error.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// Validator checks content as the site's build would, before anything is
// committed. changes maps repository-relative paths (content/circulars/
// x.md) to their new bytes, nil for a deleted file: a change's whole
// difference from the published branch, laid over the published content
// (a draft branch differs from it by its entry's files only). The error,
// when the loader refuses, lists each problem as file:line: field:
// message (catalog.Problems).
type Validator interface {
	Validate(ctx context.Context, changes map[string][]byte) error
}

// ValidatorFunc adapts a function to Validator.
type ValidatorFunc func(ctx context.Context, changes map[string][]byte) error

// Validate calls f.
func (f ValidatorFunc) Validate(ctx context.Context, changes map[string][]byte) error {
	return f(ctx, changes)
}
