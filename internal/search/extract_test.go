package search

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

// questionPlan is the plan of a question as Prepare makes it over an
// index holding every word: its words but the stop words, each its key.
func questionPlan(text string) Plan {
	p := Plan{Query: Query{Text: text}}
	seen := map[string]bool{}
	for _, t := range Tokens(text) {
		if !StopWord(t.Word) && !seen[t.Word] {
			seen[t.Word] = true
			p.Terms = append(p.Terms, Term{Word: t.Word, Keys: []string{t.Key}})
		}
	}
	return p
}

func circular(slug, title, summary, content string) catalog.Circular {
	return catalog.Circular{Entry: catalog.Entry{ID: "id-" + slug, Slug: slug}, Source: "RBI", Title: title,
		Summary: catalog.OptString(summary), Content: content}
}

// factOf is the text a's fact span marks, "" for none.
func factText(a Answer) string {
	if a.Fact == nil {
		return ""
	}
	u := utf16.Encode([]rune(string(a.DirectAnswer)))
	return string(utf16.Decode(u[a.Fact.Start:a.Fact.End]))
}

var (
	networkChoice = circular("card-network-choice", "Customer choice of card network",
		"RBI required card issuers to offer customers a choice of card network at issue and renewal.",
		"Card issuers may not sign agreements with card networks that stop them from using other networks.\n\n"+
			"Issuers must let eligible customers choose a network when a card is issued. The authorised card networks are American Express, Mastercard, NPCI-RuPay and Visa.\n\n"+
			"Issuers have six months from the circular's date to comply. Credit card issuers with under 10 lakh active cards are exempt from offering a choice.")
	liteLimits = circular("upi-lite-limits", "UPI Lite: revised limits",
		"NPCI raised UPI Lite limits.",
		"NPCI implemented higher UPI Lite limits with immediate effect: ₹1,000 per transaction, up from ₹500, and a total balance of ₹5,000, up from ₹2,000.\n\n"+
			"Issuer banks must return the balances of dormant accounts by 30 June 2025.")
	apiLimits = circular("upi-api-limits", "Moderation of UPI API usage",
		"NPCI capped the use of the most-used UPI APIs.",
		"PSP banks and acquiring banks must monitor and throttle the API traffic they send to UPI.\n\n"+
			"Balance enquiries are limited to 50 per app per customer per day. Autopay debits run outside peak hours, with one attempt and up to three retries.")
)

func TestExtract_Questions(t *testing.T) {
	hits := func(cs ...catalog.Circular) []Hit {
		var out []Hit
		for _, c := range cs {
			out = append(out, Hit{Circular: c, Tier: TierAny})
		}
		return out
	}
	for _, tc := range []struct {
		name, question string
		hits           []Hit
		typ            string
		answer, fact   string
		source         string
	}{
		// The summary repeats the question's words; the text states the
		// fact asked for.
		{"Duration", "how long do card issuers have to offer a choice of card network", hits(networkChoice), AnswerDuration,
			"Issuers have six months from the circular's date to comply.", "six months", "card-network-choice"},
		{"AmountPerTransaction", "what is the UPI Lite per-transaction limit", hits(liteLimits, networkChoice), AnswerAmount,
			"NPCI implemented higher UPI Lite limits with immediate effect: ₹1,000 per transaction, up from ₹500, and a total balance of ₹5,000, up from ₹2,000.",
			"₹1,000", "upi-lite-limits"},
		{"AmountNearItsNoun", "what is the maximum balance in UPI Lite", hits(liteLimits), AnswerAmount,
			"NPCI implemented higher UPI Lite limits with immediate effect: ₹1,000 per transaction, up from ₹500, and a total balance of ₹5,000, up from ₹2,000.",
			"₹5,000", "upi-lite-limits"},
		{"Date", "by when must issuer banks return dormant balances", hits(apiLimits, liteLimits), AnswerDate,
			"Issuer banks must return the balances of dormant accounts by 30 June 2025.", "30 June 2025", "upi-lite-limits"},
		{"Count", "how many retries are allowed for autopay debits", hits(apiLimits), AnswerCount,
			"Autopay debits run outside peak hours, with one attempt and up to three retries.", "three", "upi-api-limits"},
		{"CountPerDay", "how many balance enquiries per day can a customer make", hits(apiLimits), AnswerCount,
			"Balance enquiries are limited to 50 per app per customer per day.", "50", "upi-api-limits"},
		{"YesNo", "can card issuers sign exclusive agreements with card networks", hits(networkChoice), AnswerYesNo,
			"Card issuers may not sign agreements with card networks that stop them from using other networks.", "may not", "card-network-choice"},
		{"Who", "who must monitor and throttle the API traffic sent to UPI", hits(apiLimits), AnswerWho,
			"PSP banks and acquiring banks must monitor and throttle the API traffic they send to UPI.", "PSP banks and acquiring banks", "upi-api-limits"},
		{"WhichNamedParties", "which card networks are authorised", hits(networkChoice), AnswerWho,
			"The authorised card networks are American Express, Mastercard, NPCI-RuPay and Visa.",
			"American Express, Mastercard, NPCI-RuPay and Visa", "card-network-choice"},
		// Honesty: the circulars hold the question's words but no fact of
		// the asked kind, so there is no answer.
		{"NoFactNoAnswer", "when must PSP banks throttle their API traffic", hits(apiLimits), AnswerDate, "", "", "upi-api-limits"},
		{"NotInContent", "what is the penalty for an aggregator missing the escrow deadline", hits(apiLimits), AnswerAmount, "", "", "upi-api-limits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Extract(questionPlan(tc.question), tc.hits)
			got := []string{string(a.AnswerType), string(a.DirectAnswer), factText(a), a.Sources[0].Slug}
			want := []string{tc.typ, tc.answer, tc.fact, tc.source}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Extract(%q) (-want +got) [type, answer, fact, first source]:\n%s\nconfidence %v", tc.question, diff, a.Confidence)
			}
			if tc.answer != "" && (a.Confidence < minConfidence || a.Confidence > 1) {
				t.Errorf("confidence %v, want an answer's", a.Confidence)
			}
			if tc.answer == "" && a.Fact != nil {
				t.Errorf("fact %+v without an answer", a.Fact)
			}
		})
	}
}

func TestExtract_Confidence(t *testing.T) {
	q := "how long do card issuers have to offer a choice of card network"
	strong := Extract(questionPlan(q), []Hit{{Circular: networkChoice, Tier: TierAny}})
	// The same question about a circular holding few of its words.
	weak := Extract(questionPlan(q), []Hit{{Circular: liteLimits, Tier: TierAny}})
	if strong.Confidence < 0.6 || weak.DirectAnswer != "" || weak.Confidence >= strong.Confidence {
		t.Errorf("confidence %v for the circular the question is about, %v (%q) for another; want a high one and a low one without answer",
			strong.Confidence, weak.Confidence, weak.DirectAnswer)
	}
	p := questionPlan(q)
	p.Terms[0].Corrected = "long" // a corrected query counts less
	if c := Extract(p, []Hit{{Circular: networkChoice, Tier: TierAny}}).Confidence; c >= strong.Confidence {
		t.Errorf("corrected query's confidence %v, want less than %v", c, strong.Confidence)
	}
}

func TestExtract_AdjacentSentence(t *testing.T) {
	c := circular("x", "Payment aggregators: escrow", "", "Non-bank payment aggregators must keep customer funds in an escrow account. "+
		"It applies from 1 April 2026.")
	a := Extract(questionPlan("from when must payment aggregators keep funds in escrow"), []Hit{{Circular: c, Tier: TierAny}})
	want := "Non-bank payment aggregators must keep customer funds in an escrow account. It applies from 1 April 2026."
	if string(a.DirectAnswer) != want || factText(a) != "1 April 2026" {
		t.Errorf("answer %q with fact %q; want %q with its date: a sentence opening with 'It' takes the one before", a.DirectAnswer, factText(a), want)
	}
}

func TestExtract_FactOffsetsUTF16(t *testing.T) {
	// ₹ and e₹ before the fact: offsets are UTF-16 units, as JavaScript's.
	c := circular("x", "e₹ wallets", "", "The e₹ wallet 𝒳 limit is ₹10,000 per month for each user.")
	a := Extract(questionPlan("what is the e₹ wallet limit per month"), []Hit{{Circular: c, Tier: TierAny}})
	if factText(a) != "₹10,000" {
		t.Errorf("fact %+v marks %q of %q, want ₹10,000", a.Fact, factText(a), a.DirectAnswer)
	}
}

func TestExtract_Passage(t *testing.T) {
	a := Extract(questionPlan("how long do card issuers have to offer a choice of card network"), []Hit{{Circular: networkChoice, Tier: TierAny}, {Circular: liteLimits, Tier: TierAny}})
	p := a.Sources[0].Passage
	if !strings.Contains(p, "six months") || strings.Count(p, ". ")+1 > passageSentences {
		t.Errorf("passage %q; want at most %d sentences, the answer's among them", p, passageSentences)
	}
	if a.Sources[1].Passage == "" {
		t.Error("the other source has no passage")
	}
}

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		name, from, text string
		want             string // "" when not found
	}{
		{"DateSpelling", "Banks must comply by 1 April 2026.", "Comply by April 1, 2026, the circular says.", "April 1, 2026"},
		{"AmountScale", "The cap is ₹5 lakh.", "The cap is Rs. 5,00,000 per transaction.", "Rs. 5,00,000"},
		{"DurationWords", "Issuers have six months to comply.", "Within 6 months issuers comply.", "6 months"},
		{"OtherDate", "Banks must comply by 1 April 2026.", "Banks must comply by 1 May 2026.", ""},
		{"Missing", "Banks must comply by 1 April 2026.", "Banks must comply soon.", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Values(tc.from)[0]
			got, ok := Locate(tc.text, Fact{Text: v.Text, Kind: v.Kind, Keys: v.Keys})
			if (tc.want != "") != ok || ok && got.Text != tc.want {
				t.Errorf("Locate = %+v, %v; want %q", got, ok, tc.want)
			}
		})
	}
	t.Run("Modal", func(t *testing.T) {
		if got, ok := Locate("No, issuers cannot enter such agreements.", Fact{Kind: "modal", Keys: []string{"modal:no"}}); !ok || got.Text != "cannot" {
			t.Errorf("Locate = %+v, %v; want cannot", got, ok)
		}
		if _, ok := Locate("Issuers may enter such agreements.", Fact{Kind: "modal", Keys: []string{"modal:no"}}); ok {
			t.Error("a permission found for a prohibition")
		}
	})
	t.Run("Party", func(t *testing.T) {
		f := Fact{Kind: "party", Keys: []string{Key("psp"), Key("banks"), Key("acquiring")}}
		if got, ok := Locate("Acquiring and PSP banks must do it.", f); !ok || got.Text != "Acquiring and PSP banks" {
			t.Errorf("Locate = %+v, %v; want the party's words", got, ok)
		}
		if _, ok := Locate("Banks must do it.", f); ok {
			t.Error("a party found without all its words")
		}
	})
}

func TestExtract_Provision(t *testing.T) {
	// A wallet limit stated by a direction's provision in force, beside
	// circulars that state other limits: the provision answers, cited as
	// its own; the circulars stay the sources. Asked about what only a
	// circular states, the circular answers and no provision is cited.
	limit := &ProvisionHit{Provision: catalog.Provision{ID: "9.1(ii)", Heading: "Full-KYC PPIs",
		Text: "The outstanding balance of a full-KYC wallet shall not exceed ₹2,00,000 at any time."},
		Direction: "ppi-2021", DirectionTitle: "MD-PPIs, 2021", Source: "RBI", URL: ProvisionURL("ppi-2021", "9.1(ii)")}
	top := []Hit{{Circular: liteLimits, Tier: TierAny}, {Circular: apiLimits, Tier: TierAny}, {Provision: limit, Tier: TierAny}}
	for _, tc := range []struct {
		question, fact, provision string
		sources                   []string
	}{
		{"what is the full-KYC wallet balance limit", "₹2,00,000", "9.1(ii)", []string{"upi-lite-limits", "upi-api-limits"}},
		{"how many balance enquiries per app per day on UPI", "50", "", []string{"upi-api-limits", "upi-lite-limits"}},
	} {
		a := Extract(questionPlan(tc.question), top)
		cited := ""
		if a.Provision != nil {
			cited = a.Provision.ID
			if a.Provision.URL != "/master-directions/ppi-2021/#p-9-1-ii" || len(a.Provision.Highlights) == 0 {
				t.Errorf("%q: provision cited as %+v", tc.question, a.Provision)
			}
		}
		var sources []string
		for _, s := range a.Sources {
			sources = append(sources, s.Slug)
		}
		if factText(a) != tc.fact || cited != tc.provision || !cmp.Equal(sources, tc.sources) {
			t.Errorf("%q: fact %q citing provision %q, sources %v; want %q, %q, %v", tc.question, factText(a), cited, sources, tc.fact, tc.provision, tc.sources)
		}
	}
}

// TestExtract_KeptSentences: a hit with a stamp answers as one without,
// its sentences kept; another stamp is another text, whatever was kept.
func TestExtract_KeptSentences(t *testing.T) {
	const q = "what is the upi lite balance limit"
	stamped := func(c catalog.Circular, stamp uint64) []Hit { return []Hit{{Circular: c, Tier: TierAny, Stamp: stamp}} }
	for _, tc := range []struct {
		name string
		hits []Hit
		want []Hit // answered the same as
	}{
		{"First", stamped(liteLimits, 1<<62), stamped(liteLimits, 0)},
		{"Kept", stamped(liteLimits, 1<<62), stamped(liteLimits, 0)},
		{"OtherStamp", stamped(apiLimits, 1<<62+1), stamped(apiLimits, 0)},
		{"ProvisionNotKept", []Hit{{Provision: &ProvisionHit{Provision: catalog.Provision{ID: "1", Text: "The balance limit is ₹5,000."}, Source: "RBI"}, Stamp: 1 << 62}},
			[]Hit{{Provision: &ProvisionHit{Provision: catalog.Provision{ID: "1", Text: "The balance limit is ₹5,000."}, Source: "RBI"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(Extract(questionPlan(q), tc.want), Extract(questionPlan(q), tc.hits)); diff != "" {
				t.Errorf("(-unstamped +stamped):\n%s", diff)
			}
		})
	}
}
