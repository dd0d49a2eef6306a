package alerts

import (
	"context"
	"log/slog"
	"regpulse/internal/schedule"
	"time"
)

// Every runs run every interval until ctx is cancelled (`regpulse serve
// --alerts-every`): each run sends what is due then (Run), so immediate
// alerts go within an interval of their circular reaching the store and
// the digests in the first run from DigestHour. A failed run is logged
// and the next one runs on schedule.
func Every(ctx context.Context, interval time.Duration, run func(ctx context.Context) (Report, error), log *slog.Logger) {
	schedule.Every(ctx, interval, run, func(rep Report, err error) {
		if err != nil {
			log.Error("alerts run failed; the next run takes it up", "err", err)
		}
		if rep.Confirmations+rep.Matched+rep.Sent+rep.Failed+rep.Folded > 0 {
			log.Info(rep.String())
		}
	})
}
