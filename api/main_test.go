package api

import (
	"os"
	"testing"

	"regpulse/internal/store/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster the search benchmark
// may start.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
