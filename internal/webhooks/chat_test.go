package webhooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"regpulse/internal/mail/mailtest"
)

// circularCard is a card as the sync makes one.
func circularCard() Card {
	eff := "2025-08-01"
	return CircularCard("New circular", CircularData{ID: "c1", Slug: "rbi-2025-07-01-kyc", Title: "Know Your Customer: <amendment> & updates",
		Source: "RBI", Number: "RBI/2025-26/17", PublishedDate: "2025-07-01", EffectiveDate: &eff, DocumentType: "circular",
		ImpactLevel: "medium", Impact: []EntityImpact{{"PSP", "high"}, {"Issuer", "low"}},
		Summary: "Banks & PSPs must re-verify <high-risk> customers by 31 March.",
		URL:     "https://regpulse.test/circulars/rbi-2025-07-01-kyc", SourceURL: "https://rbi.org.in/notification/17"})
}

// TestMessages_Golden: each card as Block Kit and as an Adaptive Card,
// byte for byte as testdata holds them (go test -run Golden -update
// rewrites them).
func TestMessages_Golden(t *testing.T) {
	t.Parallel()
	due := "2026-12-05"
	for _, tc := range []struct {
		name string
		card Card
	}{
		{"circular", circularCard()},
		{"direction", DirectionCard(DirectionChangedData{Direction: DirectionRef{Slug: "kyc", Title: "Master Direction – KYC", Source: "RBI",
			URL: "https://regpulse.test/master-directions/kyc"}, VersionDate: "2025-03-01",
			Circular: &CircularRef{Slug: "rbi-2025-03-01-kyc", Title: "Amendment to KYC", URL: "https://regpulse.test/circulars/rbi-2025-03-01-kyc"},
			URL:      "https://regpulse.test/master-directions/kyc/as-of/2025-03-01", ChangesURL: "https://regpulse.test/master-directions/kyc/compare/2024-01-01/2025-03-01"})},
		{"decision", DecisionCard(DecisionChangedData{Decision: DecisionData{ID: "circular c1", Title: "Know Your Customer", Status: "assessing",
			Owner: "ravi", DueDate: &due, URL: "https://regpulse.test/circulars/rbi-2025-07-01-kyc"}, Change: "updated", Changed: []string{"status"}})},
		{"due", DueCard(ObligationDueData{Decision: DecisionData{Title: "Know Your Customer", Status: "new"}, DueDate: due, Kind: Overdue,
			URL: "https://regpulse.test/circulars/rbi-2025-07-01-kyc"})},
		{"bare", Card{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for kind, msg := range map[string]map[string]any{"slack": SlackMessage(tc.card), "teams": TeamsMessage(tc.card)} {
				got, err := json.MarshalIndent(msg, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				mailtest.Golden(t, tc.name+"."+kind+".json", append(got, '\n'))
			}
		})
	}
}

// TestSlackText: mrkdwn escaping, and clipping that never cuts an
// entity in half.
func TestSlackText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"a & b <c>", 100, "a &amp; b &lt;c&gt;"},
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"a&b", 7, "a&amp;b"},
		{"a&b", 6, "a…"},           // "a&amp;" is 6 with no room for "…"
		{"ab&c", 7, "ab…"},         // the entity would end at 7: dropped whole
		{"a&&", 11, "a&amp;&amp;"}, // exactly 11: no clipping
		{"a&&", 10, "a&amp;…"},
		{"ééé", 2, "é…"},
	} {
		got := slackText(tc.in, tc.n)
		if got != tc.want {
			t.Errorf("slackText(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > tc.n {
			t.Errorf("slackText(%q, %d) is %d characters", tc.in, tc.n, n)
		}
	}
}

// TestSlackMessage_Limits: a card past every Block Kit limit makes a
// message within them.
func TestSlackMessage_Limits(t *testing.T) {
	t.Parallel()
	c := Card{Context: strings.Repeat("&", 4000), Title: strings.Repeat("T", 400), Regulator: strings.Repeat("<", 3000),
		Impact: "high", ImpactFor: strings.Repeat("x", 3000), Summary: strings.Repeat("a&b ", 2000)}
	for i := range 40 {
		c.Links = append(c.Links, Link{Title: strings.Repeat("L", 100), URL: "https://regpulse.test/" + strings.Repeat("p", i)})
	}
	c.Links = append(c.Links, Link{Title: "too long", URL: "https://regpulse.test/" + strings.Repeat("p", 3000)})
	if errs := checkSlack(SlackMessage(c)); len(errs) > 0 {
		t.Errorf("out of Block Kit's limits:\n%s", strings.Join(errs, "\n"))
	}
}

// TestTeamsMessage_Size: a summary that would pass Teams' 28 KB is
// clipped so the whole message fits.
func TestTeamsMessage_Size(t *testing.T) {
	t.Parallel()
	for _, summary := range []string{strings.Repeat("word ", 20000), strings.Repeat("\"<é>\" ", 10000), strings.Repeat("x", teamsMax)} {
		c := circularCard()
		c.Summary = summary
		b, err := json.Marshal(TeamsMessage(c))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > teamsMax {
			t.Errorf("a message of %d bytes, more than %d", len(b), teamsMax)
		}
		if len(b) < teamsMax-200 {
			t.Errorf("a message of %d bytes: clipped more than needed", len(b))
		}
		if errs := checkTeams(b); len(errs) > 0 {
			t.Errorf("not a Teams message: %v", errs)
		}
	}
}

// TestChat_StandInReceivers: the bodies Body makes for Slack and Teams
// posted to stand-in receivers on loopback, which check the documented
// required fields as the services do and answer as they do (Slack 200
// "ok", Teams Workflows 202).
func TestChat_StandInReceivers(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var refused []string
	slack := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var msg map[string]any
		errs := []string{}
		if r.Header.Get("Content-Type") != "application/json" {
			errs = append(errs, "content type "+r.Header.Get("Content-Type"))
		}
		if err := json.Unmarshal(b, &msg); err != nil {
			errs = append(errs, "invalid_payload: "+err.Error())
		} else {
			errs = append(errs, checkSlack(msg)...)
		}
		if len(errs) > 0 {
			mu.Lock()
			refused = append(refused, "slack: "+strings.Join(errs, "; "))
			mu.Unlock()
			http.Error(w, "invalid_blocks", http.StatusBadRequest)
			return
		}
		io.WriteString(w, "ok")
	}))
	defer slack.Close()
	teams := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if errs := checkTeams(b); len(errs) > 0 {
			mu.Lock()
			refused = append(refused, "teams: "+strings.Join(errs, "; "))
			mu.Unlock()
			http.Error(w, `{"error":{"code":"InvalidRequestContent"}}`, http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer teams.Close()
	long := circularCard()
	long.Summary = strings.Repeat("Long & <detailed> summary. ", 3000)
	cards := []Card{circularCard(), long, {}, DueCard(ObligationDueData{Decision: DecisionData{Title: "X", Status: "new"}, DueDate: "2026-01-01", Kind: DueSoon})}
	client := &http.Client{Timeout: 5 * time.Second}
	for _, c := range cards {
		ev, err := NewEvent(AlertMatched, "org", "", "k", map[string]string{}, c, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		for _, to := range []struct {
			kind Kind
			url  string
			want int
		}{{KindSlack, slack.URL, 200}, {KindTeams, teams.URL, 202}} {
			if err := (AddressPolicy{AllowLoopback: true}).CheckEndpointURL(to.kind, to.url); err != nil {
				t.Fatal(err)
			}
			body, err := Body(to.kind, ev)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Post(to.url, "application/json", bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != to.want {
				t.Errorf("%s answered %d, want %d", to.kind, resp.StatusCode, to.want)
			}
		}
	}
	if len(refused) > 0 {
		t.Errorf("refused:\n%s", strings.Join(refused, "\n"))
	}
}

// checkSlack checks an incoming webhook's message against Block Kit's
// documented shapes and limits.
func checkSlack(msg map[string]any) []string {
	var errs []string
	bad := func(format string, v ...any) { errs = append(errs, sprintf(format, v...)) }
	text, _ := msg["text"].(string)
	if text == "" {
		bad("no text (the notification's fallback)")
	}
	blocks, ok := msg["blocks"].([]any)
	if !ok || len(blocks) == 0 || len(blocks) > 50 {
		bad("blocks: want 1 to 50, got %v", msg["blocks"])
	}
	textObj := func(where string, v any, typ string, max int) {
		o, ok := v.(map[string]any)
		if !ok {
			bad("%s: no text object", where)
			return
		}
		if typ != "" && o["type"] != typ {
			bad("%s: type %v, want %s", where, o["type"], typ)
		}
		if o["type"] != "plain_text" && o["type"] != "mrkdwn" {
			bad("%s: text type %v", where, o["type"])
		}
		s, _ := o["text"].(string)
		if n := utf8.RuneCountInString(s); n == 0 || n > max {
			bad("%s: text of %d characters (1 to %d)", where, n, max)
		}
		if o["type"] == "mrkdwn" && strings.ContainsAny(strings.NewReplacer("&amp;", "", "&lt;", "", "&gt;", "").Replace(s), "<>&") {
			bad("%s: unescaped mrkdwn %q", where, s)
		}
	}
	for i, b := range blocks {
		blk, _ := b.(map[string]any)
		where := sprintf("block %d (%v)", i, blk["type"])
		switch blk["type"] {
		case "header":
			textObj(where, blk["text"], "plain_text", 150)
		case "section":
			fields, hasFields := blk["fields"].([]any)
			if blk["text"] == nil && !hasFields {
				bad("%s: neither text nor fields", where)
			}
			if blk["text"] != nil {
				textObj(where, blk["text"], "", 3000)
			}
			if len(fields) > 10 {
				bad("%s: %d fields", where, len(fields))
			}
			for _, f := range fields {
				textObj(where+" field", f, "", 2000)
			}
		case "context":
			els, _ := blk["elements"].([]any)
			if len(els) == 0 || len(els) > 10 {
				bad("%s: %d elements", where, len(els))
			}
			for _, e := range els {
				textObj(where, e, "", 3000)
			}
		case "actions":
			els, _ := blk["elements"].([]any)
			if len(els) == 0 || len(els) > 25 {
				bad("%s: %d elements", where, len(els))
			}
			for _, e := range els {
				btn, _ := e.(map[string]any)
				if btn["type"] != "button" {
					bad("%s: element %v", where, btn["type"])
				}
				textObj(where+" button", btn["text"], "plain_text", 75)
				if u, _ := btn["url"].(string); u == "" || len(u) > 3000 {
					bad("%s: button url of %d characters", where, len(u))
				}
			}
		default:
			bad("%s: unknown block type", where)
		}
	}
	return errs
}

// checkTeams checks a Teams Workflows message: type message, one
// attachment of an Adaptive Card 1.4 with a body, at most teamsMax
// bytes.
func checkTeams(b []byte) []string {
	var errs []string
	if len(b) > teamsMax {
		errs = append(errs, sprintf("%d bytes", len(b)))
	}
	var msg struct {
		Type        string `json:"type"`
		Attachments []struct {
			ContentType string `json:"contentType"`
			Content     struct {
				Schema  string           `json:"$schema"`
				Type    string           `json:"type"`
				Version string           `json:"version"`
				Body    []map[string]any `json:"body"`
				Actions []map[string]any `json:"actions"`
			} `json:"content"`
		} `json:"attachments"`
	}
	if err := json.Unmarshal(b, &msg); err != nil {
		return append(errs, err.Error())
	}
	if msg.Type != "message" || len(msg.Attachments) != 1 {
		return append(errs, sprintf("type %q with %d attachments", msg.Type, len(msg.Attachments)))
	}
	a := msg.Attachments[0]
	if a.ContentType != "application/vnd.microsoft.card.adaptive" || a.Content.Type != "AdaptiveCard" || a.Content.Version != "1.4" ||
		a.Content.Schema == "" || len(a.Content.Body) == 0 {
		errs = append(errs, sprintf("attachment %+v", a))
	}
	for _, el := range a.Content.Body {
		switch el["type"] {
		case "TextBlock":
			if s, _ := el["text"].(string); s == "" {
				errs = append(errs, "an empty TextBlock")
			}
		case "FactSet":
			if facts, _ := el["facts"].([]any); len(facts) == 0 {
				errs = append(errs, "an empty FactSet")
			}
		default:
			errs = append(errs, sprintf("element %v (not of Adaptive Cards 1.4 as used)", el["type"]))
		}
	}
	for _, act := range a.Content.Actions {
		if act["type"] != "Action.OpenUrl" || act["url"] == "" || act["title"] == "" {
			errs = append(errs, sprintf("action %v", act))
		}
	}
	return errs
}

func sprintf(format string, v ...any) string { return fmt.Sprintf(format, v...) }
