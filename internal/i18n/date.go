package i18n

import (
	"strings"
	"time"
)

// The months and weekdays in Hindi, as Indian readers write them.
var (
	hindiMonths = [...]string{"जनवरी", "फ़रवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर", "अक्टूबर", "नवंबर", "दिसंबर"}
	hindiDays   = [...]string{"रविवार", "सोमवार", "मंगलवार", "बुधवार", "गुरुवार", "शुक्रवार", "शनिवार"}
)

// Date is t in layout (time.Format's) in the language of code: in Hindi
// the month's and the weekday's full names are Hindi's (2 मार्च 2026);
// digits stay the international ones Indian readers use. E-mails and
// the titles the generator gives pages read it; the pages' own dates are
// Hugo's (its locale's month names).
func Date(code string, t time.Time, layout string) string {
	s := t.Format(layout)
	if Of(code).Code != Hindi.Code {
		return s
	}
	if strings.Contains(layout, "January") {
		s = strings.Replace(s, t.Month().String(), hindiMonths[t.Month()-1], 1)
	}
	if strings.Contains(layout, "Monday") {
		s = strings.Replace(s, t.Weekday().String(), hindiDays[t.Weekday()], 1)
	}
	return s
}
