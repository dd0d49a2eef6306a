package generator

import (
	"fmt"
	"strings"
	"unicode"

	"regpulse/internal/i18n"
)

// The labels the generator decides (a document type's name, a stat's
// meaning, an impact list's title…) are the catalogue's texts
// (internal/i18n/strings: docType, verification, entity, stat,
// impactSection, change, topic, eventType, category, feed, logEvent),
// given to pages in every language: the templates' data
// (hugo.Data.site) is one for every language's runs, so a key whose
// values carry labels holds them by language code (byLanguage), which a
// template reads as (index hugo.Data.site.X site.Params.lang). The
// English texts are those the API, the feeds and the e-mails show
// (catalog.DocumentTypeLabel…); a test holds the two alike.

// byLanguage is f's value in each language of the site, by code.
func byLanguage[V any](f func(code string) V) map[string]V {
	out := make(map[string]V, len(i18n.Languages))
	for _, l := range i18n.Languages {
		out[l.Code] = f(l.Code)
	}
	return out
}

// labelKey is the catalogue's key of a value's label: format (an area's
// "docType.%s") with the value in lowerCamelCase ("master-direction":
// docType.masterDirection, "Payment Systems": category.paymentSystems,
// "PSP": entity.psp).
func labelKey(format, value string) string {
	words := strings.FieldsFunc(value, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	var b strings.Builder
	for i, w := range words {
		if strings.ToUpper(w) == w {
			w = strings.ToLower(w)
		}
		r := []rune(w)
		if i == 0 {
			r[0] = unicode.ToLower(r[0])
		} else {
			r[0] = unicode.ToUpper(r[0])
		}
		b.WriteString(string(r))
	}
	return fmt.Sprintf(format, b.String())
}

// labelOf is the label of value in the catalogue's area of format.
func labelOf(format, value string) localText { return keyText(labelKey(format, value), nil) }

// labelMap is each value's label in the language of code.
func labelMap(format string, values []string, code string) map[string]string {
	out := make(map[string]string, len(values))
	for _, v := range values {
		out[v] = labelOf(format, v).In(code)
	}
	return out
}
