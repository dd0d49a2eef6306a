package local

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"regpulse/internal/markdown"
)

// Sentences splits Markdown (or plain text, which is Markdown too) into its
// sentences, markup removed. A heading, list item or table cell ends a
// sentence even without a full stop. A full stop ends one only when
// followed by a space and a capital, digit or opening mark, and not after
// an abbreviation ("No.", "Rs.", "e.g.", Hindi's "रु.", "सं.") or an
// initial; "2.5" and "DPSS.CO.PD" never split because no space follows
// their dots. In Hindi (and the other scripts that use it) the danda । and
// double danda ॥ end a sentence; a question mark, exclamation mark or full
// stop ends one before a letter of a script without capitals (Hindi's
// "क्या यह लागू है? हाँ।").
func Sentences(md string) []string {
	var out []string
	for _, block := range markdown.Blocks(md) {
		out = append(out, splitBlock(block)...)
	}
	return out
}

// abbreviations are the words, lower-cased and without their final dot,
// that a full stop follows without ending the sentence.
var abbreviations = map[string]bool{
	"no": true, "nos": true, "rs": true, "re": true, "mr": true, "mrs": true, "ms": true, "dr": true,
	"sr": true, "jr": true, "st": true, "vs": true, "viz": true, "i.e": true, "e.g": true, "cf": true,
	"al": true, "fig": true, "sec": true, "secs": true, "para": true, "paras": true, "cl": true,
	"art": true, "ch": true, "vol": true, "pp": true, "ltd": true, "pvt": true, "co": true,
	"inc": true, "govt": true, "dept": true, "approx": true, "ref": true, "dt": true, "dtd": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true, "hon'ble": true, "w.e.f": true,
	"u.s": true, "u.k": true, "min": true, "max": true, "bn": true, "mn": true, "cr": true,
	// Hindi: रुपये (rupees), संख्या (number), क्रमांक (serial number),
	// पृष्ठ (page), डॉक्टर, श्री, दिनांक (dated).
	"रु": true, "रू": true, "सं": true, "क्र": true, "पृ": true, "डॉ": true, "श्री": true, "दि": true,
}

// caseless reports whether r is a letter of a script without capitals
// (Devanagari's letters among them): after a sentence's end mark, such a
// letter begins the next sentence as a capital does in English.
func caseless(r rune) bool {
	return unicode.IsLetter(r) && !unicode.IsUpper(r) && !unicode.IsLower(r) && !unicode.IsTitle(r)
}

// splitBlock splits one block of text into sentences.
func splitBlock(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		danda := r == '।' || r == '॥'
		if r != '.' && r != '!' && r != '?' && !danda {
			continue
		}
		end := i
		// Closing quotes and brackets stay with the sentence they close.
		for end < len(s) {
			c, n := utf8.DecodeRuneInString(s[end:])
			if !strings.ContainsRune(`"')]”’`, c) {
				break
			}
			end += n
		}
		// A danda always ends a sentence: it marks nothing else, and the
		// scripts that use it have no capitals to look for.
		if end < len(s) && !danda {
			next, n := utf8.DecodeRuneInString(s[end:])
			if !unicode.IsSpace(next) {
				continue
			}
			after, _ := utf8.DecodeRuneInString(strings.TrimLeftFunc(s[end+n:], unicode.IsSpace))
			if !(unicode.IsUpper(after) || unicode.IsDigit(after) || caseless(after) || strings.ContainsRune(`"'(“‘₹`, after)) {
				continue
			}
		}
		if r == '.' && abbreviated(s[start:i-1]) {
			continue
		}
		if t := strings.TrimSpace(s[start:end]); t != "" {
			out = append(out, t)
		}
		start = end
		i = end
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// abbreviated reports whether the text before a full stop ends with an
// abbreviation or a single capital letter (an initial: "A. K. Sharma").
func abbreviated(before string) bool {
	word := before[strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })+1:]
	if utf8.RuneCountInString(word) == 1 {
		r, _ := utf8.DecodeRuneInString(word)
		return unicode.IsUpper(r)
	}
	return abbreviations[strings.ToLower(word)]
}
