// Package auth is RegPulse's accounts: the user and preference types the
// store keeps and the API writes, password hashing (argon2id), the signed
// tokens (JWT, HS256) that identify a signed-in user, and the signing
// secret. It holds no SQL and no HTTP.
package auth

import (
	"errors"
	"time"

	"regpulse/internal/catalog"
)

// Roles a user can have. RoleUser is every new account's; RoleAdmin is
// given only by the operator's command line (regpulse users promote).
const (
	RoleUser  = "user"
	RoleAdmin = "admin"
)

// Roles are the allowed roles.
var Roles = []string{RoleUser, RoleAdmin}

// User is an account. The password hash and the token version never leave
// the server (json:"-").
type User struct {
	ID         string    `json:"id"` // a random UUID
	Username   string    `json:"username"`
	Email      string    `json:"email"`
	FirstName  string    `json:"firstName"`
	LastName   string    `json:"lastName"`
	Role       string    `json:"role" enum:"Role"`
	IsVerified bool      `json:"isVerified"`
	CreatedAt  time.Time `json:"createdAt"`
	// Language is the language of the user's e-mails (i18n.Languages'
	// codes): the signup page's, or the one chosen in the profile.
	Language string `json:"language" enum:"Language"`

	// LastLoginAt is the last successful sign-in; zero if none yet.
	LastLoginAt time.Time `json:"-"`
	// PasswordHash is the encoded argon2id hash (see Hasher).
	PasswordHash string `json:"-"`
	// TokenVersion is written into every token issued for the user; raising
	// it (a password change, log out everywhere) revokes all older tokens.
	TokenVersion int `json:"-"`
}

// NewUser is what sign-up stores; the store gives the id, role, timestamps.
type NewUser struct {
	Username, Email, PasswordHash, FirstName, LastName string
	Language                                           string // "": English
}

// Profile is what a user may change about themselves.
type Profile struct {
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Email     string `json:"email"`
	// Language is the language of the user's e-mails; "" keeps it.
	Language string `json:"language,omitempty"`
}

// Preferences are a user's choices, created with the user.
type Preferences struct {
	ID                     string   `json:"id"`
	UserID                 string   `json:"userId"`
	CircularSources        []string `json:"circularSources"`
	ImpactLevels           []string `json:"impactLevels"`
	Categories             []string `json:"categories"`
	EntityTypes            []string `json:"entityTypes"`
	EmailNotifications     bool     `json:"emailNotifications"`
	NewsletterSubscription bool     `json:"newsletterSubscription"`
	// MentionEmails: an e-mail when a colleague @mentions the user in a
	// comment; ReminderEmails: the daily reminder of their decisions due
	// within a week or overdue (issue 44's team e-mails).
	MentionEmails  bool      `json:"mentionEmails"`
	ReminderEmails bool      `json:"reminderEmails"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

// Choices are the preferences a user sets (Preferences without the
// generated fields).
type Choices struct {
	CircularSources        []string `json:"circularSources"`
	ImpactLevels           []string `json:"impactLevels"`
	Categories             []string `json:"categories"`
	EntityTypes            []string `json:"entityTypes"`
	EmailNotifications     bool     `json:"emailNotifications"`
	NewsletterSubscription bool     `json:"newsletterSubscription"`
	MentionEmails          bool     `json:"mentionEmails"`
	ReminderEmails         bool     `json:"reminderEmails"`
}

// DefaultChoices are a new user's preferences: e-mail notifications,
// mention e-mails and reminders on, newsletter off, no filters.
func DefaultChoices() Choices {
	return Choices{CircularSources: []string{}, ImpactLevels: []string{}, Categories: []string{}, EntityTypes: []string{}, EmailNotifications: true,
		MentionEmails: true, ReminderEmails: true}
}

// Errors a store returns.
var (
	ErrUsernameTaken = errors.New("username already taken")
	ErrEmailTaken    = errors.New("email already registered")
	ErrNoUser        = errors.New("no such user")
)

// The values preferences take: the search's source filter (the
// regulators), the impact levels, the search's categories and the
// entity types impact is judged for (what kind of business the user is).
var (
	PreferenceSources      = catalog.Regulators
	PreferenceImpactLevels = catalog.ImpactLevels
	PreferenceCategories   = catalog.CircularCategories
	PreferenceEntityTypes  = catalog.EntityTypes
)
