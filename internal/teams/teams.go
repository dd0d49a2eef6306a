// Package teams is RegPulse's organisations (issue 44, first slice):
// an organisation, its members and their roles, what each role may do,
// and the invitations by e-mail that make members. It holds no SQL
// (internal/store) and no HTTP (api); it renders and sends the
// invitation e-mail through internal/mail.
package teams

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The roles of a member.
const (
	// RoleAdmin manages the members, their roles and the organisation.
	RoleAdmin = "admin"
	// RoleMember decides, acts and comments.
	RoleMember = "member"
	// RoleViewer reads.
	RoleViewer = "viewer"
	// RoleAuditor reads everything and accepts or rejects evidence,
	// until the access it was given ends (Member.ExpiresAt).
	RoleAuditor = "auditor"
)

// Roles are every role, the most powerful first.
var Roles = []string{RoleAdmin, RoleMember, RoleViewer, RoleAuditor}

// The permission rules, decided here once: the API and later the pages
// show them, never recompute them.

// CanManageMembers: invite, change roles, remove members.
func CanManageMembers(role string) bool { return role == RoleAdmin }

// CanDecide: record decisions and actions on the organisation's items.
func CanDecide(role string) bool { return role == RoleAdmin || role == RoleMember }

// CanRead: read the organisation and what belongs to it.
func CanRead(role string) bool { return slices.Contains(Roles, role) }

// CanReviewEvidence: accept or reject evidence.
func CanReviewEvidence(role string) bool { return role == RoleAdmin || role == RoleAuditor }

// Organisation is a team's workspace: everything it decides belongs to
// it.
type Organisation struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// EntityTypes are the kinds of business it is (catalog.EntityTypes).
	EntityTypes []string  `json:"entityTypes"`
	CreatedAt   time.Time `json:"createdAt"`
	// Role is the signed-in user's role in it.
	Role string `json:"role" enum:"MemberRole"`
	// CanManageMembers is CanManageMembers(Role), for the pages to show
	// the rule rather than recompute it (WithPermissions sets it).
	CanManageMembers bool `json:"canManageMembers"`
	// CanDecide and CanReviewEvidence are the rules of the same names
	// of Role: what the decision panel and the board offer.
	CanDecide         bool `json:"canDecide"`
	CanReviewEvidence bool `json:"canReviewEvidence"`
}

// WithPermissions is o with what its Role may do set from the rules
// above.
func (o Organisation) WithPermissions() Organisation {
	o.CanManageMembers = CanManageMembers(o.Role)
	o.CanDecide = CanDecide(o.Role)
	o.CanReviewEvidence = CanReviewEvidence(o.Role)
	return o
}

// Member is a user's membership of an organisation.
type Member struct {
	UserID         string    `json:"userId"`
	OrganisationID string    `json:"organisationId"`
	Username       string    `json:"username"`
	Email          string    `json:"email"`
	FirstName      string    `json:"firstName"`
	LastName       string    `json:"lastName"`
	Role           string    `json:"role" enum:"MemberRole"`
	JoinedAt       time.Time `json:"joinedAt"`
	// ExpiresAt ends an auditor's access; nil for the other roles.
	ExpiresAt *time.Time `json:"expiresAt"`
}

// Active reports whether m is a member at now: an auditor whose access
// has ended is no longer one, without anyone removing it.
func (m Member) Active(now time.Time) bool {
	return m.Role != RoleAuditor || m.ExpiresAt == nil || now.Before(*m.ExpiresAt)
}

// Actor is who changes an organisation, and which: what every
// state-changing store call takes, for the audit trail to record.
type Actor struct {
	UserID         string
	OrganisationID string
	// KeyID is the organisation's API key acting (apikeys.Key), UserID
	// then "": the trail names the key, what the change stores as its
	// author (decided by, added by) is no one.
	KeyID string
	// RequestID and ClientAddr say where the change came from, for its
	// row of the audit trail ("" outside a request).
	RequestID, ClientAddr string
}

// AuditID is the audit trail's actor of a's changes: the user's id, or
// "apikey:" and the key's id (apikeys.Key.ActorID).
func (a Actor) AuditID() string {
	if a.KeyID != "" {
		return "apikey:" + a.KeyID
	}
	return a.UserID
}

// InviteFor is how long an invitation's link works.
const InviteFor = 7 * 24 * time.Hour

// Invite is an invitation to join an organisation, sent by e-mail.
type Invite struct {
	ID             string `json:"id"`
	OrganisationID string `json:"organisationId"`
	Email          string `json:"email"`
	Role           string `json:"role" enum:"MemberRole"`
	// AccessEndsAt is an auditor's end of access, which the membership
	// keeps; nil for the other roles.
	AccessEndsAt *time.Time `json:"accessEndsAt"`
	InvitedBy    string     `json:"invitedBy"`
	CreatedAt    time.Time  `json:"createdAt"`
	// ExpiresAt is when the link stops working (InviteFor after it was
	// made).
	ExpiresAt  time.Time  `json:"expiresAt"`
	AcceptedAt *time.Time `json:"acceptedAt"`
}

// NewInvite is an invitation made at now by by to join org as role.
func NewInvite(by Actor, email, role string, accessEndsAt *time.Time, now time.Time) Invite {
	now = now.UTC().Truncate(time.Second) // the token's expiry is in seconds
	return Invite{ID: uuid.NewString(), OrganisationID: by.OrganisationID, Email: strings.TrimSpace(email), Role: role,
		AccessEndsAt: accessEndsAt, InvitedBy: by.UserID, CreatedAt: now, ExpiresAt: now.Add(InviteFor)}
}

// Errors of the teams' calls.
var (
	// ErrNoOrganisation: no such organisation, or the user is not (or no
	// longer) a member: the two are one answer.
	ErrNoOrganisation = errors.New("no organisation of yours has that id")
	ErrNoMember       = errors.New("no member of this organisation has that id")
	ErrLastAdmin      = errors.New("an organisation keeps at least one admin: make another member admin first")
	ErrAlreadyMember  = errors.New("this user is already a member of the organisation")
	ErrNoInvite       = errors.New("this invitation does not exist (any more): ask for a new one")
	ErrInviteUsed     = errors.New("this invitation was already accepted")
	ErrInviteExpired  = errors.New("this invitation has expired: ask an admin of the organisation for a new one")
	ErrInviteEmail    = errors.New("this invitation was sent to another e-mail address: sign in with the account of that address")
)

// CheckAccept reports why the user of email cannot accept inv at now,
// or nil.
func (inv Invite) CheckAccept(email string, now time.Time) error {
	switch {
	case inv.AcceptedAt != nil:
		return ErrInviteUsed
	case !now.Before(inv.ExpiresAt):
		return ErrInviteExpired
	case !strings.EqualFold(strings.TrimSpace(email), inv.Email):
		return ErrInviteEmail
	}
	return nil
}
