package ingest

import (
	"regexp"
	"slices"
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

// Reference keys: the regulator's reference number normalised per source,
// so that two copies of one instrument (an RBI notification and its press
// release, the English and the Hindi text, the HTML page and the PDF, an
// NPCI repost) carry the same key however each prints it.
var (
	// RBI/2025-26/141, RBI/2025-2026/141, rbi/DPSS/2021-22/82 (the
	// Hindi भारिबैं is mapped to RBI first).
	rbiRef = regexp.MustCompile(`(?i)\bRBI\s*/\s*(?:([A-Z]+)\s*/\s*)?(\d{4})\s*-\s*(\d{2,4})\s*/\s*(\d+)\b`)
	// SEBI/HO/MIRSD/MIRSD-PoD/P/CIR/2025/0000013, any case.
	sebiRef = regexp.MustCompile(`(?i)\bSEBI/HO/((?:[A-Z0-9_-]+/)+)(\d{4})/(\d+)\b`)
	// NPCI's operating circulars: "NPCI/UPI/OC No. 228/2025-26", "UPI |
	// OC No. 228 | FY 2025-26", "OC No. 208A", and the PDFs' names
	// "UPI-OC-No-215-A-FY-2025-26". The addendum's letter is its own
	// identity (208A is not 208); it must end a word, so the F of "FY"
	// after "228 " is not taken for one.
	npciRef = regexp.MustCompile(`(?:\b(UPI|IMPS|NACH|RuPay|RUPAY|AePS|AEPS|BBPS|NETC|NFS|CTS|NPCI)\b[\s|/_-]{0,4})?\b(?i:OC)[\s._-]*(?i:No)?[\s._-]*(\d{1,4})(?:[\s_-]?([A-Z])\b)?`)
	// "Addendum to OC 208" names the OC an addendum amends, not its own
	// number: left out before the OC number is looked for.
	npciAmends = regexp.MustCompile(`(?i)\b(?:addendum|amendment|corrigendum|revision|modification)s?[\s_-]+(?:to|of|in)[\s_-]+(?:the[\s_-]+)?(?:UPI[\s_-]+)?OC[\s._-]*(?:No\.?)?[\s._-]*\d+(?:[\s_-]?[A-Z]\b)?`)
	// Devanagari digits, read as ASCII digits.
	devanagariDigits = strings.NewReplacer("०", "0", "१", "1", "२", "2", "३", "3", "४", "4",
		"५", "5", "६", "6", "७", "7", "८", "8", "९", "9",
		// The Hindi abbreviation of the Reserve Bank in its numbers
		// (भारिबैं, with or without the anusvara's dot, sometimes
		// followed by the English slash spaced out).
		"भारिबैं", "RBI", "भारिबै", "RBI")
)

// refHead is how much of a body is searched for the item's own number:
// the reference line heads a circular, and numbers further on name the
// circulars it amends or cites, which are not its identity.
const refHead = 400

// RefKey is the item's reference numbers normalised for source (RBI, SEBI,
// NPCI …), space-separated and sorted, or "" when it carries none. The
// title is searched first; the body's head only when the title has no
// number. Two items sharing any one key are one instrument.
func RefKey(source, title, body string) string {
	keys := refKeys(source, title)
	if len(keys) == 0 {
		head := body
		if len(head) > refHead {
			head = head[:refHead]
		}
		keys = refKeys(source, head)
	}
	slices.Sort(keys)
	return strings.Join(slices.Compact(keys), " ")
}

// refKeys are the reference numbers s carries, one of each shape, normalised.
func refKeys(source, s string) []string {
	s = devanagariDigits.Replace(s)
	var keys []string
	if m := rbiRef.FindStringSubmatch(s); m != nil {
		k := "RBI/"
		if m[1] != "" {
			k += strings.ToUpper(m[1]) + "/"
		}
		keys = append(keys, k+fiscalYear(m[2], m[3])+"/"+trimZeros(m[4]))
	}
	if m := rbiDeptNumber.FindString(s); m != "" {
		keys = append(keys, deptKey(m))
	}
	if m := sebiRef.FindStringSubmatch(s); m != nil {
		keys = append(keys, "SEBI/HO/"+strings.ToUpper(m[1])+m[2]+"/"+trimZeros(m[3]))
	}
	if source == "NPCI" {
		if m := npciRef.FindStringSubmatch(npciAmends.ReplaceAllString(s, " ")); m != nil {
			// An OC number printed without its product ("OC No. 208A", a
			// title's "Addendum to OC 208") is read as UPI's, the series
			// the listing pages carry; another product's OCs name it.
			product := strings.ToUpper(m[1])
			if product == "" || product == "NPCI" {
				product = "UPI"
			}
			keys = append(keys, "NPCI:"+product+":OC:"+trimZeros(m[2])+m[3])
		}
	}
	return keys
}

// deptKey is an RBI department's reference in one spelling: no spaces,
// no "No.", the file code's dashes as dots, the year as yyyy-yy:
// "DPSS.CO.PD No.1810/02.14.008/2019-20" → "DPSS.CO.PD.1810/02.14.008/2019-20".
func deptKey(s string) string {
	s = strings.ToUpper(strings.Join(strings.Fields(s), ""))
	s = strings.ReplaceAll(s, "NO.", ".")
	for strings.Contains(s, "..") {
		s = strings.ReplaceAll(s, "..", ".")
	}
	parts := strings.Split(s, "/")
	if len(parts) == 3 {
		parts[1] = strings.ReplaceAll(parts[1], "-", ".")
		if y1, y2, ok := strings.Cut(parts[2], "-"); ok {
			parts[2] = fiscalYear(y1, y2)
		}
	}
	return strings.Join(parts, "/")
}

// fiscalYear is an Indian financial year as yyyy-yy ("2025", "2026" →
// "2025-26").
func fiscalYear(start, end string) string {
	if len(end) == 4 {
		end = end[2:]
	}
	return start + "-" + end
}

// trimZeros drops a serial number's leading zeros (SEBI's 0000013 is 13).
func trimZeros(n string) string {
	t := strings.TrimLeft(n, "0")
	if t == "" {
		return "0"
	}
	return t
}
