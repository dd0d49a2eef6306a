// Package indian writes numbers as Indian readers write them: digits
// grouped in thousands, then lakhs and crores (1,00,000; 12,34,56,789),
// the grouping of CLDR's en-IN and hi-IN locales, which the pages
// (Hugo's lang.FormatNumber with the site's locale en-IN) and the islands
// (Intl.NumberFormat("en-IN"), islands/src/lib/numbers.ts) use too. Every
// number the Go side writes for a reader (e-mails, the API's messages) goes
// through Group or Rupees.
package indian

import (
	"strconv"
)

// Group writes n with Indian digit grouping: the last three digits, then
// groups of two ("-12,34,567"; 999 and 1,000 as usual).
func Group(n int64) string {
	neg := n < 0
	// the magnitude as unsigned, so the smallest int64 has one too
	u := uint64(n)
	if neg {
		u = -u
	}
	return sign(neg) + group(strconv.FormatUint(u, 10))
}

// Int is Group of an int, the type most counts have.
func Int(n int) string { return Group(int64(n)) }

// Rupees writes an amount in paise as rupees: "₹12,34,567.50", the
// paise left out when there are none ("₹1,00,000"); a negative amount
// is "-₹500".
func Rupees(paise int64) string {
	neg := paise < 0
	u := uint64(paise)
	if neg {
		u = -u
	}
	s := sign(neg) + "₹" + group(strconv.FormatUint(u/100, 10))
	if p := u % 100; p != 0 {
		s += "." + strconv.FormatUint(p/10, 10) + strconv.FormatUint(p%10, 10)
	}
	return s
}

func sign(neg bool) string {
	if neg {
		return "-"
	}
	return ""
}

// group puts the separators into a string of digits.
func group(d string) string {
	if len(d) <= 3 {
		return d
	}
	head, tail := d[:len(d)-3], d[len(d)-3:]
	b := make([]byte, 0, len(d)+len(d)/2)
	for i := range len(head) {
		b = append(b, head[i])
		if (len(head)-i)%2 == 1 { // a pair of the head ends here
			b = append(b, ',')
		}
	}
	return string(append(b, tail...))
}
