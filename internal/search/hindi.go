package search

import (
	_ "embed"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// termsText is the bilingual list of the field's terms (terms.txt): each
// concept's English words, its Devanagari forms and its Hinglish ones.
//
//go:embed terms.txt
var termsText string

// A phrase of the terms list: the English words it is searched as (none
// for a function word) and whether it is a Latin (Hinglish) function
// word, dropped only from a query that is Hindi already.
type phrase struct {
	english  []string
	function bool
}

// terms is the list read: by the normalised words of a form, joined by
// one space; longest is the most words a form has.
var terms, longest = mustParseTerms(termsText)

// mustParseTerms reads the terms list; a malformed line is a build error
// (the list is embedded), so it panics, and TestTerms reads it too.
func mustParseTerms(text string) (map[string]phrase, int) {
	m, n, err := parseTerms(text)
	if err != nil {
		panic(err)
	}
	return m, n
}

func parseTerms(text string) (map[string]phrase, int, error) {
	m := map[string]phrase{}
	longest := 1
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 3 {
			return nil, 0, fmt.Errorf("terms.txt:%d: want English | Devanagari forms | Hinglish forms", i+1)
		}
		en := strings.TrimSpace(parts[0])
		var p phrase
		if en != "-" {
			for _, t := range Tokens(en) {
				p.english = append(p.english, t.Word)
			}
			if len(p.english) == 0 {
				return nil, 0, fmt.Errorf("terms.txt:%d: no English words", i+1)
			}
		}
		for col, forms := range parts[1:] {
			for f := range strings.SplitSeq(forms, ",") {
				if f = strings.TrimSpace(f); f == "" {
					continue
				}
				var ws []string
				for _, t := range Tokens(f) {
					ws = append(ws, normDeva(t.Word))
				}
				key := strings.Join(ws, " ")
				if prev, ok := m[key]; ok && !equalWords(prev.english, p.english) {
					return nil, 0, fmt.Errorf("terms.txt:%d: %q is already %q", i+1, f, strings.Join(prev.english, " "))
				}
				q := p
				q.function = col == 1 && p.english == nil
				m[key] = q
				longest = max(longest, len(ws))
			}
		}
	}
	return m, longest, nil
}

func equalWords(a, b []string) bool { return strings.Join(a, " ") == strings.Join(b, " ") }

// Translate is text with its Hindi and Hinglish terms replaced by their
// English words (the terms list, longest form first), Hindi function
// words dropped, and the question words a Hindi question opens or ends
// with made English ones, so that readQuestion and the index read what
// an English speaker would have typed: "UPI लाइट की सीमा कितनी है?" is
// "upi lite limit how much?". Words the list lacks are kept as typed. A
// query with no such word is returned as it is; ok reports a change.
func Translate(text string) (out string, ok bool) {
	out, _, ok = translate(text)
	return out, ok
}

// translate is Translate, with the Hindi words each English word stands
// for (lower-cased, as typed): a Hindi circular holds those, so the
// query's term matches either (Prepare). A form of several words gives
// its words to the English ones in order, the rest to the last.
func translate(text string) (out string, typed map[string][]string, ok bool) {
	if !mayBeHindi(text) {
		return text, nil, false
	}
	toks := Tokens(text)
	typed = map[string][]string{}
	changed := false
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = normDeva(t.Word)
	}
	var b []string
	for i := 0; i < len(words); {
		if w := words[i]; w == "क्या" || w == "kya" {
			// Opening a question it asks yes or no; elsewhere it asks what.
			if i == 0 {
				b = append(b, "do")
			} else {
				b = append(b, "what", "is")
			}
			i++
			changed = true
			continue
		}
		n := min(longest, len(words)-i)
		for ; n > 0; n-- {
			if p, ok := terms[strings.Join(words[i:i+n], " ")]; ok {
				b = append(b, p.english...)
				changed = true
				for j := range n {
					if t := toks[i+j]; len(p.english) > 0 && t.Word[0] >= utf8.RuneSelf {
						en := p.english[min(j, len(p.english)-1)]
						typed[en] = append(typed[en], t.Word)
					}
				}
				break
			}
		}
		if n == 0 {
			b = append(b, toks[i].Word)
			n = 1
		}
		i += n
	}
	if !changed {
		return text, nil, false
	}
	out = strings.Join(b, " ")
	if s := strings.TrimSpace(text); strings.HasSuffix(s, "?") {
		out += "?"
	}
	return out, typed, true
}

// mayBeHindi reports whether text has a word outside ASCII or a
// Hinglish term: an English query is read once, word by word, without
// building anything (the plan step of every English query pays this).
func mayBeHindi(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			return true
		}
	}
	var buf [24]byte
	found := false
	eachWord(text, func(start, end int) {
		if found || end-start > len(buf) {
			return
		}
		w := buf[:end-start]
		for j := range w {
			c := text[start+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			w[j] = c
		}
		if p, ok := terms[string(w)]; ok && !p.function || string(w) == "kya" {
			found = true
		}
	})
	return found
}

// normDeva is a word as the terms list compares it: in Devanagari, the
// nukta dropped (ज़ is ज), chandrabindu read as anusvara (ँ as ं), the
// candra vowels of English loan words as the plain ones (ऑ as ओ, ॅ as
// े), a nasal consonant with virama before a consonant as anusvara
// (हिन्दी as हिंदी) and the joiners dropped, so spelling variants meet.
// Other words are returned as they are.
func normDeva(w string) string {
	deva := false
	for _, r := range w {
		if r >= 0x0900 && r <= 0x097F {
			deva = true
			break
		}
	}
	if !deva {
		return w
	}
	rs := []rune(norm.NFD.String(w))
	out := make([]rune, 0, len(rs))
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch r {
		case '\u093C', '\u200C', '\u200D': // nukta, ZWNJ, ZWJ
			continue
		case '\u0901': // chandrabindu
			r = '\u0902'
		case '\u0911': // candra O
			r = '\u0913'
		case '\u0949': // candra O sign
			r = '\u094B'
		case '\u090D': // candra E
			r = '\u090F'
		case '\u0945': // candra E sign
			r = '\u0947'
		case 'ङ', 'ञ', 'ण', 'न', 'म':
			if i+2 < len(rs) && rs[i+1] == '\u094D' && rs[i+2] >= 'क' && rs[i+2] <= 'ह' {
				out = append(out, '\u0902')
				i++ // the virama
				continue
			}
		}
		out = append(out, r)
	}
	return norm.NFC.String(string(out))
}
