package main

import (
	"context"
	"time"

	"regpulse/internal/jobs"
	"regpulse/internal/schedule"
	"regpulse/internal/webhooks"
)

// scheduleWebhooks runs the webhooks' sender every interval (the
// regpulse-webhooks function's run, jobs.Webhooks), with one sender kept
// between runs (its connections), under policy and retrying on sched.
func scheduleWebhooks(ctx context.Context, interval time.Duration, policy webhooks.AddressPolicy, sched webhooks.Schedule, env jobs.Env) {
	snd := webhooks.NewSender(policy, sched)
	snd.Now = env.Now
	env.Webhooks = jobs.WebhooksEnv{Sender: snd, Budget: time.Minute}
	log := env.Log
	go schedule.Every(ctx, interval, func(ctx context.Context) (webhooks.Report, error) { return jobs.Webhooks(ctx, env) },
		func(rep webhooks.Report, err error) {
			if err != nil {
				log.Error("webhooks run failed; the next run takes it up", "err", err)
			}
			if rep.Delivered+rep.Retried+rep.Failed+len(rep.Disabled)+rep.Pruned > 0 {
				log.Info(rep.String())
			}
		})
}
