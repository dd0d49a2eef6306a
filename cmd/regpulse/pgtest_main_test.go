package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"regpulse/internal/store/pgtest"
)

// TestMain runs the tests and stops the throwaway PostgreSQL cluster they
// may start; with runAsEnv set it is `regpulse` itself instead (the
// many-instances test's servers).
func TestMain(m *testing.M) {
	if os.Getenv(runAsEnv) != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
		stop()
		if err != nil && !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "regpulse:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(pgtest.Main(m))
}
