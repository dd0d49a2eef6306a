package jobs

import (
	"testing"
	"time"

	"regpulse/internal/webhooks"
)

// TestWebhooks: as a function with nothing due, the run does nothing and
// fails not (no way out for e-mails only warns); the environment's
// setting allows loopback, and nothing else does.
func TestWebhooks(t *testing.T) {
	env := fnEnv(t, time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	rep, err := Webhooks(t.Context(), env)
	if err != nil || rep.Delivered+rep.Retried+rep.Failed+rep.Pruned != 0 {
		t.Fatalf("%s, %v", rep, err)
	}
	for _, tc := range []struct {
		env  string
		want bool
	}{{"", false}, {"false", false}, {"true", true}, {"1", true}, {"yes", false}} {
		got := WebhooksPolicy(func(k string) string {
			if k == WebhooksAllowLoopbackEnv {
				return tc.env
			}
			return ""
		})
		if got != (webhooks.AddressPolicy{AllowLoopback: tc.want}) {
			t.Errorf("%q: %+v", tc.env, got)
		}
	}
	if env.WebhooksSender().Policy.AllowLoopback {
		t.Error("the function's sender allows loopback")
	}
}
