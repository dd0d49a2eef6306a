package webhooks

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Body is what a delivery of ev to an endpoint of kind sends: a webhook
// gets the event's payload, a chat channel its card as Slack's Block Kit
// or as a Teams Adaptive Card.
func Body(kind Kind, ev Event) ([]byte, error) {
	switch kind {
	case KindWebhook:
		return ev.Payload()
	case KindSlack:
		return json.Marshal(SlackMessage(ev.Card))
	case KindTeams:
		return json.Marshal(TeamsMessage(ev.Card))
	}
	return nil, fmt.Errorf("webhooks: no endpoint kind %q", kind)
}

// Slack's limits (Block Kit reference, api.slack.com/reference/block-kit):
// a header's plain_text 150 characters; a section's text 3,000, at most
// 10 fields of 2,000 each; a context block at most 10 elements; an
// actions block at most 25 elements; a button's text 75 and its url
// 3,000. A message's text (the notification's fallback) is kept to
// 3,000 too (Slack truncates 40,000).
const (
	slackHeaderMax  = 150
	slackSectionMax = 3000
	slackFieldMax   = 2000
	slackButtonMax  = 75
	slackButtonsMax = 25
	slackURLMax     = 3000
	slackTextMax    = 3000
)

// SlackMessage is card as an incoming webhook's message: text (the
// notification's fallback) and blocks: a context line (what happened),
// a header (the title), a section of fields (regulator, impact), a
// section of the summary and an actions block of link buttons. mrkdwn
// text is escaped (&, <, >) and clipped without cutting an entity.
func SlackMessage(c Card) map[string]any {
	var blocks []any
	if c.Context != "" {
		blocks = append(blocks, map[string]any{"type": "context", "elements": []any{
			map[string]any{"type": "mrkdwn", "text": slackText(c.Context, slackSectionMax)}}})
	}
	blocks = append(blocks, map[string]any{"type": "header", "text": map[string]any{
		"type": "plain_text", "text": clip(title(c), slackHeaderMax), "emoji": false}})
	var fields []any
	if c.Regulator != "" {
		fields = append(fields, map[string]any{"type": "mrkdwn", "text": "*Regulator*\n" + slackText(c.Regulator, slackFieldMax-len("*Regulator*\n"))})
	}
	if c.Impact != "" {
		fields = append(fields, map[string]any{"type": "mrkdwn", "text": "*Impact*\n" + slackText(impactLine(c), slackFieldMax-len("*Impact*\n"))})
	}
	if len(fields) > 0 {
		blocks = append(blocks, map[string]any{"type": "section", "fields": fields})
	}
	if c.Summary != "" {
		blocks = append(blocks, map[string]any{"type": "section", "text": map[string]any{
			"type": "mrkdwn", "text": slackText(c.Summary, slackSectionMax)}})
	}
	var buttons []any
	for _, l := range c.Links {
		if len(buttons) == slackButtonsMax {
			break
		}
		if l.URL == "" || len(l.URL) > slackURLMax {
			continue // a button whose url Slack refuses would lose the message
		}
		buttons = append(buttons, map[string]any{"type": "button", "text": map[string]any{
			"type": "plain_text", "text": clip(l.Title, slackButtonMax), "emoji": false}, "url": l.URL})
	}
	if len(buttons) > 0 {
		blocks = append(blocks, map[string]any{"type": "actions", "elements": buttons})
	}
	return map[string]any{"text": slackText(fallback(c), slackTextMax), "blocks": blocks}
}

// teamsMax is the most a Teams Workflows message may weigh: Teams
// refuses one over about 28 KB; the summary is clipped to keep the
// whole payload under it, with room to spare.
const teamsMax = 27 * 1024

// teamsTitleMax and teamsFactMax bound the card's other texts, so that
// clipping the summary alone always fits.
const (
	teamsTitleMax = 500
	teamsFactMax  = 500
	teamsLinksMax = 6
)

// TeamsMessage is card as a Teams Workflows webhook's message: one
// attachment holding an Adaptive Card (version 1.4, what Teams renders):
// a subtle context line, the title, a FactSet (regulator, impact), the
// summary and Action.OpenUrl links. The summary is clipped so the whole
// message stays under teamsMax bytes.
func TeamsMessage(c Card) map[string]any {
	msg, summary := teamsMessage(c)
	if summary == nil {
		return msg
	}
	weight := func() int { b, _ := json.Marshal(msg); return len(b) }
	if weight() <= teamsMax {
		return msg
	}
	// Keep the longest start of the summary that fits (a character may
	// weigh up to 6 bytes in JSON: search rather than guess).
	r := []rune(c.Summary)
	lo, hi := 0, len(r) // lo fits (the ellipsis alone is assumed to), hi does not
	for lo+1 < hi {
		mid := (lo + hi) / 2
		summary["text"] = clipped(r[:mid])
		if weight() <= teamsMax {
			lo = mid
		} else {
			hi = mid
		}
	}
	summary["text"] = clipped(r[:lo])
	return msg
}

// clipped is the start of a text cut short, with an ellipsis.
func clipped(r []rune) string {
	return strings.TrimRightFunc(string(r), unicode.IsSpace) + "…"
}

// teamsMessage builds the message, answering its summary's TextBlock
// (nil when none) for TeamsMessage to clip.
func teamsMessage(c Card) (map[string]any, map[string]any) {
	var body []any
	if c.Context != "" {
		body = append(body, map[string]any{"type": "TextBlock", "text": clip(c.Context, teamsTitleMax), "isSubtle": true, "size": "Small", "wrap": true})
	}
	body = append(body, map[string]any{"type": "TextBlock", "text": clip(title(c), teamsTitleMax), "weight": "Bolder", "size": "Medium", "wrap": true})
	var facts []any
	if c.Regulator != "" {
		facts = append(facts, map[string]any{"title": "Regulator", "value": clip(c.Regulator, teamsFactMax)})
	}
	if c.Impact != "" {
		facts = append(facts, map[string]any{"title": "Impact", "value": clip(impactLine(c), teamsFactMax)})
	}
	if len(facts) > 0 {
		body = append(body, map[string]any{"type": "FactSet", "facts": facts})
	}
	var summary map[string]any
	if c.Summary != "" {
		summary = map[string]any{"type": "TextBlock", "text": c.Summary, "wrap": true}
		body = append(body, summary)
	}
	card := map[string]any{
		"$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
		"type":    "AdaptiveCard",
		"version": "1.4",
		"body":    body,
	}
	var actions []any
	for _, l := range c.Links {
		if len(actions) == teamsLinksMax {
			break
		}
		if l.URL == "" || len(l.URL) > 2048 {
			continue
		}
		actions = append(actions, map[string]any{"type": "Action.OpenUrl", "title": clip(l.Title, 100), "url": l.URL})
	}
	if len(actions) > 0 {
		card["actions"] = actions
	}
	return map[string]any{"type": "message", "attachments": []any{map[string]any{
		"contentType": "application/vnd.microsoft.card.adaptive",
		"contentUrl":  nil,
		"content":     card,
	}}}, summary
}

// title is the card's title, never empty (Slack refuses an empty header).
func title(c Card) string {
	if t := strings.TrimSpace(c.Title); t != "" {
		return t
	}
	return "RegPulse"
}

// impactLine is the impact as a line: "High for payment aggregators, banks".
func impactLine(c Card) string {
	level := strings.ToUpper(c.Impact[:1]) + c.Impact[1:]
	if c.ImpactFor == "" {
		return level
	}
	return level + " for " + c.ImpactFor
}

// fallback is the notification's one line.
func fallback(c Card) string {
	parts := []string{}
	if c.Context != "" {
		parts = append(parts, c.Context)
	}
	if c.Regulator != "" {
		parts = append(parts, c.Regulator)
	}
	parts = append(parts, title(c))
	return strings.Join(parts, ": ")
}

// slackText is s as Slack's mrkdwn text of at most n characters: &, <
// and > escaped (what mrkdwn reads as markup), clipped with "…" before
// an escape that would pass n, never in the middle of one.
func slackText(s string, n int) string {
	fits := slackLen(s) <= n
	var b strings.Builder
	count := 0
	for _, r := range s {
		piece := string(r)
		switch r {
		case '&':
			piece = "&amp;"
		case '<':
			piece = "&lt;"
		case '>':
			piece = "&gt;"
		}
		w := utf8.RuneCountInString(piece)
		if !fits && count+w > n-1 {
			b.WriteString("…")
			return b.String()
		}
		b.WriteString(piece)
		count += w
	}
	return b.String()
}

// slackLen is how many characters s weighs escaped.
func slackLen(s string) int {
	n := 0
	for _, r := range s {
		switch r {
		case '&':
			n += 5
		case '<', '>':
			n += 4
		default:
			n++
		}
	}
	return n
}

// clip cuts s to at most n characters, ending it with "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
