package main

import (
	"context"
	"errors"
	"math"
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/generator"
)

// TestSiteRebuilds runs serve's rebuilds and syncs through a sequence of
// builds: each step is a build's outcome (its inputs, or a failure), then
// the sync's, and the calls they made.
func TestSiteRebuilds(t *testing.T) {
	// (without a limit of the process's: `regpulse build`'s tests leave theirs)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetMemoryLimit(limit) })
	var calls []string
	var buildErr, syncErr error
	var inputs string
	r := &siteRebuilds{
		options: func(_ context.Context, dir string) (generator.Options, error) {
			return generator.Options{OutDir: dir}, nil
		},
		served: func() string { return "public" },
		build: func(_ context.Context, opts generator.Options) (*generator.Result, error) {
			if !opts.ReleaseContent || opts.LastBuild != "public" || opts.OutDir != "public.b" {
				t.Errorf("build given ReleaseContent %v, LastBuild %q, OutDir %q; want true, public, public.b", opts.ReleaseContent, opts.LastBuild, opts.OutDir)
			}
			if debug.SetMemoryLimit(-1) == math.MaxInt64 {
				t.Error("a rebuild ran without a memory limit")
			}
			calls = append(calls, "build "+inputs)
			if buildErr != nil {
				return nil, buildErr
			}
			return &generator.Result{Inputs: inputs}, nil
		},
		sync: func(context.Context) error {
			calls = append(calls, "sync")
			return syncErr
		},
		memoryLimitMiB: 800,
	}
	steps := []struct {
		name              string
		inputs            string
		buildErr, syncErr error
		want              []string
	}{
		{"first build syncs", "a", nil, nil, []string{"build a", "sync"}},
		{"same inputs: no sync", "a", nil, nil, []string{"build a"}},
		{"an edit syncs", "b", nil, nil, []string{"build b", "sync"}},
		{"a failed build: no sync", "c", errors.New("bad front matter"), nil, []string{"build c"}},
		{"a failed sync", "c", nil, errors.New("disk full"), []string{"build c", "sync"}},
		{"is tried again with the same inputs", "c", nil, nil, []string{"build c", "sync"}},
		{"then not again", "c", nil, nil, []string{"build c"}},
	}
	for i, s := range steps {
		calls, inputs, buildErr, syncErr = nil, s.inputs, s.buildErr, s.syncErr
		err := r.rebuild(t.Context(), "public.b")
		if debug.SetMemoryLimit(-1) != math.MaxInt64 {
			t.Errorf("step %d (%s): the rebuild left a memory limit", i, s.name)
		}
		if (err != nil) != (s.buildErr != nil) {
			t.Fatalf("step %d (%s): rebuild = %v", i, s.name, err)
		}
		if err == nil { // (Rebuild calls after only once the site is swapped in)
			r.afterSwap(t.Context())
		}
		if diff := cmp.Diff(s.want, calls); diff != "" {
			t.Errorf("step %d (%s): calls (-want +got):\n%s", i, s.name, diff)
		}
	}
	if r.last.Inputs != "c" || r.synced != "c" {
		t.Errorf("last build's inputs %q, synced after %q; want c, c", r.last.Inputs, r.synced)
	}
}
