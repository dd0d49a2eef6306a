package directionstest

import (
	"strings"
	"testing"

	"regpulse/internal/extract/extracttest"
)

// Two versions of one direction in the shape of RBI's documents: chapters,
// numbered paragraphs with headings, a paragraph inserted with its
// footnote, one substituted, one deleted and one renumbered.
var (
	WidgetsV1 = []string{
		"Master Direction – Widgets, 2021",
		"RBI/2021-22/1 DPSS.CO.No.1/02.14.006/2021-22 April 1, 2021",
		"In exercise of the powers conferred by the Act, the Reserve Bank issues these Directions.",
		"CHAPTER I",
		"PRELIMINARY",
		"1. Short title and commencement",
		"These Directions shall be called the Widget Directions, 2021",
		"and come into force at once.",
		"2. Applicability",
		"These Directions apply to every widget issuer.",
		"CHAPTER II",
		"LIMITS",
		"3. Limit on balance",
		"A widget shall hold at most Rs 10,000 at any time; the limit applies",
		"30 days after issue.",
		"4. Reloading",
		"Widgets shall not be reloaded.",
		"5. Reporting",
		"Issuers shall report monthly.",
	}
	WidgetsV2 = []string{
		"Master Direction – Widgets, 2021 (Updated as on June 19, 2023)",
		"RBI/2021-22/1 DPSS.CO.No.1/02.14.006/2021-22 April 1, 2021",
		"CHAPTER I",
		"PRELIMINARY",
		"1. Short title and commencement",
		"These Directions shall be called the Widget Directions, 2021",
		"and come into force at once.",
		"2. Applicability",
		"These Directions apply to every widget issuer.",
		"2A. Foreign visitors",
		"Issuers may issue widgets to foreign visitors after checking their passport.¹",
		"CHAPTER II",
		"LIMITS",
		"3. Limit on balance",
		"A widget shall hold at most Rs 20,000 at any time;² the limit applies",
		"30 days after issue.",
		"6. Reporting",
		"Issuers shall report monthly.",
		"¹ Inserted vide circular DPSS.CO.No.9/02.14.006/2022-23 dated June 19, 2023",
		"² Substituted vide circular DPSS.CO.No.9/02.14.006/2022-23 dated June 19, 2023",
	}
)

// PDF lays lines out down one A4 page, as extracttest.PDF writes it.
func PDF(t testing.TB, lines []string) []byte {
	var page extracttest.Page
	for i, l := range lines {
		page.Lines = append(page.Lines, extracttest.Line{X: 72, Y: 780 - 14*i, Text: l, Unicode: strings.ContainsFunc(l, func(r rune) bool { return r > 127 })})
	}
	return extracttest.PDF(t, page)
}
