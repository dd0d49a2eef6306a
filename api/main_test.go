package api

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"regpulse/internal/store/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster the search benchmark
// may start and, when every test ran and passed, checks the calls they
// made against openapi.json (checkOpenAPICalls): a new call's own tests
// are its check, with no list to add it to.
func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	if code == 0 && wholeRun() {
		if problems := checkOpenAPICalls(); len(problems) > 0 {
			for _, p := range problems {
				fmt.Fprintln(os.Stderr, "openapi:", p)
			}
			fmt.Fprintln(os.Stderr, "FAIL: the calls the tests made do not match openapi.json")
			code = 1
		}
	}
	os.Exit(code)
}

// wholeRun reports whether the run left no test out (-run, -skip, -short).
func wholeRun() bool {
	for _, name := range []string{"test.run", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return !testing.Short()
}
