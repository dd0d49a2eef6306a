package search

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadQuestion(t *testing.T) {
	for _, tc := range []struct {
		text, typ string
		cues      []string // words not looked for in the answer
		by, from  bool
		counted   []string
		role      string
	}{
		{"how long do card issuers have to offer a choice of card network", AnswerDuration, []string{"long"}, false, false, nil, ""},
		{"within how many days must a bank credit the customer", AnswerDuration, []string{"days", "many", "must", "within"}, false, false, nil, ""},
		{"how often would banks reconcile nostro credits", AnswerDuration, []string{"often"}, false, false, nil, ""},
		{"within what time must failed UPI credits be reversed", AnswerDuration, []string{"must", "time", "within"}, false, false, nil, ""},
		{"how many balance enquiries per day can a customer make", AnswerCount, []string{"can", "many"}, false, false, []string{"balanc", "enquiri"}, ""},
		{"how much net worth must an aggregator have when it applies", AnswerAmount, []string{"much", "must"}, false, false, nil, ""},
		{"what is the offline payment limit per transaction", AnswerAmount, nil, false, false, nil, ""},
		{"what is the limited liability of a customer who reports late", AnswerAmount, nil, false, false, nil, ""},
		{"up to what amount can debits go through without AFA", AnswerAmount, []string{"amount", "can"}, false, false, nil, ""},
		{"when do the new authentication directions apply", AnswerDate, []string{"apply"}, false, true, nil, ""},
		{"by when must UPI apps show the beneficiary name", AnswerDate, []string{"by", "must"}, true, false, nil, ""},
		{"what was the deadline for porting mandates", AnswerDate, []string{"deadline"}, true, false, nil, ""},
		{"from which date do the shorter response times apply", AnswerDate, []string{"apply", "date", "from"}, false, true, nil, ""},
		{"by what time must the trustee bank receive a contribution", AnswerDate, []string{"by", "must", "time"}, true, false, nil, ""},
		{"can card issuers sign exclusive agreements with card networks", AnswerYesNo, []string{"can"}, false, false, nil, ""},
		{"does the relaxation apply when a new client is onboarded", AnswerYesNo, nil, false, false, nil, ""},
		{"is it allowed?", AnswerYesNo, []string{"allowed"}, false, false, nil, ""},
		{"who must monitor the API traffic sent to UPI", AnswerWho, []string{"must"}, false, false, nil, ""},
		{"which card networks are authorised", AnswerWho, nil, false, false, nil, "network"},
		{"what is UPI Reserve Pay", AnswerDefinition, nil, false, false, nil, ""},
		// Not questions: a topic, a title's fragment, too few words.
		{"card tokenisation guidelines", "", nil, false, false, nil, ""},
		{"is the guidelines", "", nil, false, false, nil, ""},
		{"shall", "", nil, false, false, nil, ""},
		{"why was the scheme merged", "", nil, false, false, nil, ""},
	} {
		t.Run(tc.text, func(t *testing.T) {
			q := readQuestion(tc.text)
			var cues []string
			for w := range q.cues {
				cues = append(cues, w)
			}
			slices.Sort(cues)
			got := []any{q.typ, cues, q.by, q.from, q.counted, q.role}
			want := []any{tc.typ, tc.cues, tc.by, tc.from, tc.counted, tc.role}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("readQuestion (-want +got) [type, cues, by, from, counted, role]:\n%s", diff)
			}
		})
	}
	t.Run("SubordinateClause", func(t *testing.T) {
		q := readQuestion("within how many days must a bank credit the customer after a transaction is reported")
		if !q.subordinate["reported"] || q.subordinate["credit"] || q.subordinate["when"] {
			t.Errorf("subordinate = %v; want the words after 'after' only", q.subordinate)
		}
		if q := readQuestion("by when must banks comply"); len(q.subordinate) != 0 {
			t.Errorf("'by when' opens no subordinate clause: %v", q.subordinate)
		}
	})
}

func TestModals(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string // each modal's text and class
	}{
		{"Card issuers may not sign agreements.", []string{"may not", "no"}},
		{"Issuers may charge a fee.", []string{"may", "may"}},
		{"Banks must report; PAs are barred from storing data.", []string{"must", "must", "barred", "no"}},
		{"No additional-factor authentication (AFA) is needed.", []string{"No additional-factor authentication (AFA) is needed", "exempt"}},
		{"Banks do not need separate authorisation.", []string{"do not need", "exempt"}},
		{"Apps can no longer show the name.", []string{"can no longer", "no"}},
		{"The weather was fine.", nil},
	} {
		t.Run(tc.text, func(t *testing.T) {
			var got []string
			for _, m := range modals(tc.text) {
				got = append(got, tc.text[m.start:m.end], m.class)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("modals (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParties(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		terms      []string // the question's words
		issuer     string
		want       []string
	}{
		{"List", "PSP banks and acquiring banks must monitor traffic.", []string{"monitor", "traffic"}, "NPCI",
			[]string{"PSP banks and acquiring banks"}},
		{"Names", "The networks are American Express, Diners Club, Mastercard, NPCI-RuPay and Visa.", []string{"networks"}, "RBI",
			[]string{"American Express, Diners Club, Mastercard, NPCI-RuPay and Visa"}},
		{"VerbNotParty", "RBI let issuers act as token service providers.", []string{"token", "service", "providers"}, "RBI",
			[]string{"issuers"}},
		{"QuestionsOwnWordsNoAnswer", "Card issuers may not sign.", []string{"card", "issuers"}, "RBI", nil},
		{"IssuerNoAnswer", "RBI allowed it in November.", nil, "RBI", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var words [][2]int
			var isTerm []bool
			eachWord(tc.text, func(s, e int) {
				words = append(words, [2]int{s, e})
				isTerm = append(isTerm, slices.ContainsFunc(tc.terms, func(w string) bool { return Key(w) == Key(strings.ToLower(tc.text[s:e])) }))
			})
			var got []string
			for _, f := range parties(tc.text, words, isTerm, tc.issuer) {
				got = append(got, tc.text[f.start:f.end])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("parties (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValues(t *testing.T) {
	type v struct {
		Kind, Text string
		Keys       []string
	}
	for _, tc := range []struct {
		text string
		want []v
	}{
		{"From 1 April 2026, or April 1, 2026, 01.04.2026 and 2026-04-01.", []v{
			{ValueDate, "1 April 2026", []string{"date:2026-04-01"}}, {ValueDate, "April 1, 2026", []string{"date:2026-04-01"}},
			{ValueDate, "01.04.2026", []string{"date:2026-04-01", "date:2026-01-04"}}, {ValueDate, "2026-04-01", []string{"date:2026-04-01"}},
		}},
		{"₹5 lakh, Rs. 5,00,000 and INR 500000; 85% of it.", []v{
			{ValueAmount, "₹5 lakh", []string{"num:500000"}}, {ValueAmount, "Rs. 5,00,000", []string{"num:500000"}},
			{ValueAmount, "INR 500000", []string{"num:500000"}}, {ValueAmount, "85%", []string{"num:85"}},
		}},
		{"Issuers have six months, then 10 working days, and T+1.", []v{
			{ValueDuration, "six months", []string{"duration:6 month"}}, {ValueDuration, "10 working days", []string{"duration:10 day"}},
			{ValueDuration, "T+1", []string{"duration:T+1"}},
		}},
		{"By 9:30 am in 2023, three retries and one attempt; 10 lakh cards.", []v{
			{ValueTime, "9:30 am", []string{"time:09:30"}}, {ValueYear, "2023", []string{"num:2023"}},
			{ValueNumber, "three", []string{"num:3"}}, {ValueAmount, "10 lakh", []string{"num:1000000"}},
		}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			var got []v
			for _, x := range Values(tc.text) {
				if tc.text[x.Start:x.End] != x.Text {
					t.Errorf("%q is not at [%d, %d)", x.Text, x.Start, x.End)
				}
				got = append(got, v{x.Kind, x.Text, x.Keys})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Values (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFigures(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Balance enquiries are limited to 50 per app per day, from 1 August 2025.", []string{"50", "1 August 2025"}},
		// References: a paragraph's number, a code, a sub-clause, a year, a
		// document's date.
		{"Paragraph 17 of SEBI/HO/TPD-1/CIR/2022/160 under Section 10(2) of the Act, 2007.", nil},
		{"It replaces the Directions of 27 August 2021 and its January 2022 framework.", nil},
		{"The framework took effect on 3 January 2022 and underpins UPI Lite.", []string{"3 January 2022"}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			var got []string
			for _, v := range Figures(tc.text) {
				got = append(got, v.Text)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Figures (-want +got):\n%s", diff)
			}
		})
	}
}
