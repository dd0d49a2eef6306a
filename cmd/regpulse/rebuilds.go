package main

import (
	"context"
	"time"

	"regpulse/generator"
	"regpulse/generator/render"
	"regpulse/internal/metrics"
)

// siteRebuilds are serve's rebuilds of the site (web.Site.Rebuild) and
// the store's syncs that follow them. A rebuild builds as `regpulse
// build` does, the circulars' texts read from their files as they are
// rendered and never held (generator.Options.ReleaseContent): holding
// them for the sync took an edit at 100,000 circulars from 10 s to 14–18
// s and some 4 GB. The store is synced once the site is swapped in
// (afterSwap, Rebuild's after), from the content loaded again: an editor's
// page is served as soon as it is built, and the API follows. A build
// that found its inputs as the last synced build had them syncs nothing.
type siteRebuilds struct {
	// options are a build's into dir, the store's inputs set (serve:
	// buildFlags.options and setStoredInputs).
	options func(ctx context.Context, dir string) (generator.Options, error)
	// served is the folder served now (web.Site.Dir).
	served func() string
	build  func(context.Context, generator.Options) (*generator.Result, error)
	// sync syncs the store from the content folder (app.API.Sync).
	sync func(context.Context) error
	// memoryLimitMiB is the soft memory limit a rebuild runs under, above
	// the heap serve holds when it starts (render.LimitAbove); 0: none.
	memoryLimitMiB int64

	last   *generator.Result // the last good build's, for afterSwap (Rebuild runs one at a time)
	synced string            // the inputs of the build the store was last synced after
}

// rebuild builds the site into dir (a web.BuildFunc).
func (r *siteRebuilds) rebuild(ctx context.Context, dir string) error {
	opts, err := r.options(ctx, dir)
	if err != nil {
		return err
	}
	// each rebuild goes into the folder not served (web.Rebuild): in
	// place over the site it holds, or, the first time, a new folder
	// whose unchanged files are linked from the one served; with no input
	// changed the content is not loaded again (with ReleaseContent the
	// output's manifest says so: no LastResult is read)
	opts.LastBuild = r.served()
	opts.ReleaseContent = true
	start := time.Now()
	restore := render.LimitAbove(r.memoryLimitMiB)
	res, err := r.build(ctx, opts)
	restore()
	metrics.Since(metrics.BuildDuration, start, buildOutcome(res, err))
	if err != nil {
		return err
	}
	r.last = res
	return nil
}

// afterSwap syncs the store once the last build is swapped in, unless
// the store was synced after a build of the same inputs (an unchanged
// rebuild: the same content); a failed sync is tried again after the
// next build. The sync reads the content as it is then: an edit made
// since the build is synced too, and synced again after the next build,
// whose inputs it changed. (Only an edit undone before that build starts
// stays in the store until the content next changes.)
func (r *siteRebuilds) afterSwap(ctx context.Context) {
	if r.last == nil || r.last.Inputs == r.synced {
		return
	}
	r.synced = ""
	if r.sync(ctx) == nil {
		r.synced = r.last.Inputs
	}
}
