package catalog

import "time"

// What the portal's AI writes about a circular. It is not content: the API
// makes it on request and the store keeps it apart from the mirror of
// content/, keyed by the circular's stable id, so it survives every sync.
// Provider and Model always say what made it ("local" and "extractive" when
// no language model is configured), because a reader must be able to tell a
// generated text from the editors' own.

// GeneratedSummary is an AI summary of a circular. It sits beside the
// editors' Summary and never replaces it.
type GeneratedSummary struct {
	Summary     string    `json:"summary"`
	Provider    string    `json:"provider"`
	Model       string    `json:"model"`
	GeneratedAt time.Time `json:"generatedAt"`
}

// ImpactAnalysis is an AI analysis of how hard a circular hits one entity
// type: a level, and the reasons for it, each citing the circular's text.
type ImpactAnalysis struct {
	CircularID  string    `json:"circularId"`
	EntityType  string    `json:"entityType" enum:"EntityType"`
	ImpactLevel string    `json:"impactLevel" enum:"ImpactLevel"`
	Reasons     TextList  `json:"reasons"`
	Provider    string    `json:"provider"`
	Model       string    `json:"model"`
	GeneratedAt time.Time `json:"generatedAt"`
}
