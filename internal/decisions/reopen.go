package decisions

import (
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
)

// Reopening (issue 44): a decision is tied to the text it was about
// (Decision.TextVersion). When the catalog's sync finds that text
// changed since (its circular replaced or withdrawn; the provision
// changed by a newer version of its Master Direction), the decision
// reopens by itself with what changed attached, and the audit trail
// records it as the system's change (decision.reopen).

// Why a decision reopened.
const (
	// ReopenWithdrawn: the circular (an obligation's circular) is no
	// longer in force, or no longer from the same day: replaced or
	// withdrawn; ReplacedBy names what replaced it.
	ReopenWithdrawn = "circular-withdrawn"
	// ReopenReinstated: the circular was no longer in force when
	// decided, and the catalog now has it in force again.
	ReopenReinstated = "circular-reinstated"
	// ReopenProvisionChanged: a newer version of the direction changed
	// the provision's text, heading or number; Diff says how.
	ReopenProvisionChanged = "provision-changed"
	// ReopenProvisionRemoved: a newer version deleted the provision.
	ReopenProvisionRemoved = "provision-removed"
)

// ReopenReasons are every reason.
var ReopenReasons = []string{ReopenWithdrawn, ReopenReinstated, ReopenProvisionChanged, ReopenProvisionRemoved}

// Reopening says why and when the system reopened a decision: the text
// version it was decided on (From) and the one now (To), the status it
// had, and what changed.
type Reopening struct {
	At          time.Time `json:"at"`
	Reason      string    `json:"reason" enum:"ReopenReason"`
	From        string    `json:"from"`
	To          string    `json:"to"`
	PriorStatus string    `json:"priorStatus" enum:"DecisionStatus"`
	// ReplacedBy are the circulars that replaced or withdrew the
	// circular (the catalog's withdrawnBy), RulesNowIn where its rules
	// went; empty for a provision.
	ReplacedBy catalog.List[catalog.CircularRef] `json:"replacedBy"`
	RulesNowIn catalog.List[catalog.RuleHome]    `json:"rulesNowIn"`
	// Diff is the provision's change from the version decided on to the
	// one in force now (before, after, a word-level redline, the
	// amending versions); null for a circular or an obligation.
	Diff *directions.Change `json:"diff"`
}

// Reopen is d reopened by r: its status back to assessing (a new one
// stays new: nobody had begun), its text version r.To, its version one
// more, r kept as Reopened with the prior status. The answer (the
// applicability, the owner, the due date) is kept for the members to
// decide again; who last decided and when stay theirs.
func (d Decision) Reopen(r Reopening) Decision {
	r.PriorStatus = d.Status
	if d.Status != StatusNew {
		d.Status = StatusAssessing
	}
	d.TextVersion = catalog.OptString(r.To)
	d.Version++
	d.Reopened = &r
	return d
}

// CircularReopening is why a decision on a circular (or on one of its
// obligations) decided on text version from reopens now that the
// circular's withdrawnOn is to ("" in force), or nil when nothing
// changed.
func CircularReopening(from, to string, replacedBy []catalog.CircularRef, rulesNowIn []catalog.RuleHome, at time.Time) *Reopening {
	if from == to {
		return nil
	}
	r := &Reopening{At: at, Reason: ReopenWithdrawn, From: from, To: to,
		ReplacedBy: catalog.List[catalog.CircularRef](replacedBy), RulesNowIn: catalog.List[catalog.RuleHome](rulesNowIn)}
	if to == "" {
		r.Reason = ReopenReinstated
	}
	if r.ReplacedBy == nil {
		r.ReplacedBy = catalog.List[catalog.CircularRef]{}
	}
	if r.RulesNowIn == nil {
		r.RulesNowIn = catalog.List[catalog.RuleHome]{}
	}
	return r
}

// ProvisionReopening is why a decision on provision, decided on the
// direction's version from, reopens given c, the comparison of the
// direction's text on from with its text today (version to); nil when
// c changed nothing of that provision. A provision only renumbered
// reopens too: its number, the decision's subject, is gone.
// Versions whose changes RegPulse does not know (c.Unknown) reopen
// nothing: no comparison can say the provision changed.
func ProvisionReopening(c directions.Comparison, provision, from, to string, at time.Time) *Reopening {
	for i := range c.Changes {
		ch := &c.Changes[i]
		if ch.Before == nil || ch.Before.ID != provision {
			continue
		}
		r := &Reopening{At: at, Reason: ReopenProvisionChanged, From: from, To: to,
			ReplacedBy: catalog.List[catalog.CircularRef]{}, RulesNowIn: catalog.List[catalog.RuleHome]{}, Diff: ch}
		if ch.Kind == directions.Removed {
			r.Reason = ReopenProvisionRemoved
		}
		return r
	}
	return nil
}
