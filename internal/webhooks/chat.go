package webhooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
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

// Slack's limits (Block Kit reference): a header's text 150 characters,
// a section's text 3,000, a field's 2,000, a button's text 75, at most
// 25 elements in an actions block.
const (
	slackHeaderMax  = 150
	slackSectionMax = 3000
	slackButtonMax  = 75
	slackButtonsMax = 25
)

// SlackMessage is card as an incoming webhook's message: text (the
// notification's fallback) and blocks.
func SlackMessage(c Card) map[string]any {
	var blocks []any
	if c.Context != "" {
		blocks = append(blocks, map[string]any{"type": "context", "elements": []any{
			map[string]any{"type": "mrkdwn", "text": slackEscape(c.Context)}}})
	}
	blocks = append(blocks, map[string]any{"type": "header", "text": map[string]any{
		"type": "plain_text", "text": clip(c.Title, slackHeaderMax), "emoji": false}})
	var fields []any
	if c.Regulator != "" {
		fields = append(fields, map[string]any{"type": "mrkdwn", "text": "*Regulator*\n" + slackEscape(c.Regulator)})
	}
	if c.Impact != "" {
		fields = append(fields, map[string]any{"type": "mrkdwn", "text": "*Impact*\n" + slackEscape(impactLine(c))})
	}
	if len(fields) > 0 {
		blocks = append(blocks, map[string]any{"type": "section", "fields": fields})
	}
	if c.Summary != "" {
		blocks = append(blocks, map[string]any{"type": "section", "text": map[string]any{
			"type": "mrkdwn", "text": clip(slackEscape(c.Summary), slackSectionMax)}})
	}
	var buttons []any
	for _, l := range c.Links {
		if len(buttons) == slackButtonsMax {
			break
		}
		buttons = append(buttons, map[string]any{"type": "button", "text": map[string]any{
			"type": "plain_text", "text": clip(l.Title, slackButtonMax)}, "url": l.URL})
	}
	if len(buttons) > 0 {
		blocks = append(blocks, map[string]any{"type": "actions", "elements": buttons})
	}
	return map[string]any{"text": fallback(c), "blocks": blocks}
}

// TeamsMessage is card as a Teams Workflows webhook's message: one
// attachment holding an Adaptive Card (version 1.4, what Teams renders).
func TeamsMessage(c Card) map[string]any {
	var body []any
	if c.Context != "" {
		body = append(body, map[string]any{"type": "TextBlock", "text": c.Context, "isSubtle": true, "size": "Small", "wrap": true})
	}
	body = append(body, map[string]any{"type": "TextBlock", "text": c.Title, "weight": "Bolder", "size": "Medium", "wrap": true, "style": "heading"})
	var facts []any
	if c.Regulator != "" {
		facts = append(facts, map[string]any{"title": "Regulator", "value": c.Regulator})
	}
	if c.Impact != "" {
		facts = append(facts, map[string]any{"title": "Impact", "value": impactLine(c)})
	}
	if len(facts) > 0 {
		body = append(body, map[string]any{"type": "FactSet", "facts": facts})
	}
	if c.Summary != "" {
		body = append(body, map[string]any{"type": "TextBlock", "text": c.Summary, "wrap": true})
	}
	card := map[string]any{
		"$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
		"type":    "AdaptiveCard",
		"version": "1.4",
		"body":    body,
	}
	var actions []any
	for _, l := range c.Links {
		actions = append(actions, map[string]any{"type": "Action.OpenUrl", "title": l.Title, "url": l.URL})
	}
	if len(actions) > 0 {
		card["actions"] = actions
	}
	return map[string]any{"type": "message", "attachments": []any{map[string]any{
		"contentType": "application/vnd.microsoft.card.adaptive",
		"contentUrl":  nil,
		"content":     card,
	}}}
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
	parts = append(parts, c.Title)
	return slackEscape(strings.Join(parts, ": "))
}

// slackEscape escapes what Slack's mrkdwn reads as markup (&, <, >).
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// clip cuts s to at most n characters, ending it with "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// ErrChatHost says a chat channel's URL is not its service's incoming
// webhook.
var ErrChatHost = errors.New("webhooks: not the service's webhook host")

// CheckChatURL checks a chat channel's URL: p's rules (CheckURL), and a
// host of the service: a Slack incoming webhook on hooks.slack.com, a
// Teams Workflows webhook on *.logic.azure.com or *.powerplatform.com
// (Power Automate's). A loopback URL passes when p allows loopback (tests
// and local development post to stand-in receivers).
func CheckChatURL(p AddressPolicy, kind Kind, raw string) error {
	if err := p.CheckURL(raw); err != nil {
		return err
	}
	u, _ := url.Parse(raw) // CheckURL parsed it
	host := strings.ToLower(u.Hostname())
	if p.AllowLoopback && isLoopbackHost(host) {
		return nil
	}
	switch kind {
	case KindSlack:
		if host == "hooks.slack.com" {
			return nil
		}
		return fmt.Errorf("%w: a Slack incoming webhook's URL begins https://hooks.slack.com/", ErrChatHost)
	case KindTeams:
		if strings.HasSuffix(host, ".logic.azure.com") || strings.HasSuffix(host, ".powerplatform.com") {
			return nil
		}
		return fmt.Errorf("%w: a Teams Workflows webhook's URL is on logic.azure.com or powerplatform.com", ErrChatHost)
	}
	return fmt.Errorf("webhooks: %q is not a chat channel (use slack or teams)", kind)
}
