package ingest

import (
	"regexp"
	"strings"
)

// The reference numbers regulators put in titles. Only these shapes are
// taken: a number that is not plainly one is left for the editor.
var (
	// RBI/2025-26/141, RBI/DPSS/2021-22/82
	rbiNumber = regexp.MustCompile(`\bRBI/(?:[A-Z]+/)?\d{4}-\d{2,4}/\d+\b`)
	// A department's reference: DPSS.CO.PD No.1810/02.14.008/2019-20,
	// CO.DPSS.POLC.No.S-567/02-14-003/2022-23, DOR.AML.REC.13/14.01.001/2023-24
	rbiDeptNumber = regexp.MustCompile(`\b[A-Z]{2,}(?:\.\s?[A-Za-z]+)*\.?\s?(?:No\.\s?)?[A-Z]?-?\d+/\d{2}[.-]\d{2}[.-]\d{2,3}/\d{4}-\d{2,4}\b`)
	// SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/0000013
	sebiNumber = regexp.MustCompile(`\bSEBI/HO/(?:[A-Za-z0-9_-]+/)+\d{4}/\d+\b`)
)

// CircularNumber is the regulator's reference number a title carries, or
// "" when it carries none. An RBI title with both the RBI number and the
// department's reference gives both, as RBI prints them.
func CircularNumber(title string) string {
	if n := sebiNumber.FindString(title); n != "" {
		return n
	}
	var parts []string
	if n := rbiNumber.FindString(title); n != "" {
		parts = append(parts, n)
	}
	if n := rbiDeptNumber.FindString(title); n != "" {
		parts = append(parts, n)
	}
	return strings.Join(parts, " ")
}

// numberPatterns are left out of a title's words when it becomes a slug.
var numberPatterns = []*regexp.Regexp{sebiNumber, rbiNumber, rbiDeptNumber}
