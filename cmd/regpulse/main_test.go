package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"regpulse/internal/app"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(t.Context(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestCheck(t *testing.T) {
	t.Run("RealContent", func(t *testing.T) {
		// On a fixed day: make check-content asks of today.
		out, _, err := runCmd(t, "check", "--as-of", "2026-12-01", "../../content")
		if err != nil || !strings.Contains(out, "ok:") {
			t.Fatalf("check content = %q, %v", out, err)
		}
	})
	t.Run("ErrDate", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "content")
		os.MkdirAll(filepath.Join(dir, "sibos"), 0o755)
		os.WriteFile(filepath.Join(dir, "sibos", "2026.md"), []byte("---\ntitle: Sibos 2026\nyear: 2026\nstatus: upcoming\nendDate: 2026-10-01\n---\nIt will open on 28 September 2026.\n"), 0o644)
		// Before the edition: nothing to say.
		if out, stderr, err := runCmd(t, "check", "--as-of", "2026-09-01", dir); err != nil || strings.Contains(out, "warning") {
			t.Fatalf("check before the edition = %v\n%s%s", err, out, stderr)
		}
		out, _, err := runCmd(t, "check", "--as-of", "2026-12-01", dir)
		if err == nil || !strings.Contains(err.Error(), "1 field(s) in "+dir+" no longer true on 2026-12-01 (and 1 warning(s))") {
			t.Errorf("check after the edition: err %v", err)
		}
		for _, want := range []string{
			"content/sibos/2026.md:4: status: error: upcoming, and the edition ended on 1 October 2026: completed",
			`content/sibos/2026.md:7: body: warning: "will" about 28 September 2026, now past`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if _, _, err := runCmd(t, "check", "--as-of", "1 Dec", dir); err == nil || !strings.Contains(err.Error(), "want a date YYYY-MM-DD") {
			t.Errorf("a bad --as-of: %v", err)
		}
	})
	t.Run("ErrBrokenEntry", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "content")
		os.MkdirAll(filepath.Join(dir, "news"), 0o755)
		os.WriteFile(filepath.Join(dir, "news", "x.md"), []byte("---\ntitle: T\nregion: Mars\n---\nbody\n"), 0o644)
		_, stderr, err := runCmd(t, "check", dir)
		if err == nil {
			t.Fatal("check passed a broken tree")
		}
		for _, want := range []string{
			"content/news/x.md:3: region: unknown value \"Mars\" (allowed: India, Global)",
			"content/news/x.md:2: excerpt: required field is missing",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
	})
	t.Run("Unpublished", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "content")
		os.MkdirAll(filepath.Join(dir, "circulars"), 0o755)
		os.WriteFile(filepath.Join(dir, "circulars", "rbi-2026-05-02-x.md"), []byte("---\npublished: false\ntitle: T\nsource: RBI\npublishedDate: 2026-05-02\nsourceUrl: https://rbi.org.in/x\n---\n"), 0o644)
		out, stderr, err := runCmd(t, "check", dir)
		if err != nil {
			t.Fatalf("an incomplete unpublished file failed check: %v\n%s", err, stderr)
		}
		want := "content/circulars/rbi-2026-05-02-x.md: lacks category, documentType, entityImpact, impactLevel, body"
		if !strings.Contains(out, "1 unpublished circular(s)") || !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	})
	t.Run("ErrNoDir", func(t *testing.T) {
		if _, _, err := runCmd(t, "check", filepath.Join(t.TempDir(), "nope")); err == nil {
			t.Error("check of a missing directory passed")
		}
	})
}

func TestNew(t *testing.T) {
	content := filepath.Join(t.TempDir(), "content")
	out, _, err := runCmd(t, "new", "-content", content, "circulars", "rbi-2026-01-15-test")
	if err != nil {
		t.Fatal(err)
	}
	path := strings.TrimSpace(out)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"circularNumber:", "title:", "source:", "entityImpact:", "officialUrl:", "sourceUrl:"} {
		if !strings.Contains(string(data), field) {
			t.Errorf("new circular lacks %s", field)
		}
	}
	t.Run("ErrExists", func(t *testing.T) {
		if _, _, err := runCmd(t, "new", "-content", content, "circulars", "rbi-2026-01-15-test"); err == nil {
			t.Error("new overwrote an existing entry")
		}
	})
	t.Run("ErrUnknownKind", func(t *testing.T) {
		if _, _, err := runCmd(t, "new", "-content", content, "podcasts", "x"); err == nil || !strings.Contains(err.Error(), "unknown kind") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("ErrBadSlug", func(t *testing.T) {
		if _, _, err := runCmd(t, "new", "-content", content, "news", "Bad Slug"); err == nil {
			t.Error("new accepted a bad slug")
		}
	})
}

func TestRun_ErrUnknownCommand(t *testing.T) {
	if _, stderr, err := runCmd(t, "frobnicate"); err == nil || !strings.Contains(stderr, "usage:") {
		t.Errorf("unknown command: err %v, stderr %q", err, stderr)
	}
}

func TestBuild_ErrAsOf(t *testing.T) {
	_, _, err := runCmd(t, "build", "--content", "../../content", "--out", t.TempDir(), "--as-of", "21/11/2026")
	if err == nil || !strings.Contains(err.Error(), "--as-of") {
		t.Errorf("build --as-of 21/11/2026: %v, want an error naming the flag", err)
	}
}

// TestBuild_ErrSearchSnapshot: a snapshot is of the database a build
// syncs: without one, the flag is refused before anything is built.
func TestBuild_ErrSearchSnapshot(t *testing.T) {
	out := t.TempDir()
	_, _, err := runCmd(t, "build", "--content", "../../content", "--out", out, "--database-url", "",
		"--search-snapshot", filepath.Join(t.TempDir(), "search-index.snapshot"))
	if err == nil || !strings.Contains(err.Error(), "--search-snapshot: needs --database-url") {
		t.Errorf("build --search-snapshot without --database-url: %v, want an error naming both flags", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("the refused build wrote %d files", len(entries))
	}
}

func TestIngest(t *testing.T) {
	content := filepath.Join(t.TempDir(), "content")
	if err := os.MkdirAll(content, 0o755); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir() // the store: each feed's state
	feeds := "../../internal/ingest/testdata/feeds.yaml"
	ingest := func(args ...string) (string, string, error) {
		t.Helper()
		return runCmd(t, append([]string{"ingest", "--feeds", feeds, "--content", content, "--data", data}, args...)...)
	}
	out, stderr, err := ingest("--only", "sebi")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"wrote content/circulars/sebi-2025-11-14-framework-upi-autopay-mandates-stock-brokers.md",
		"wrote content/circulars/sebi-2025-11-05-consultation-paper-review-cyber-security-framework.md",
		"ingest: 2 written, 0 already in the content, 1 skipped with a warning; polls 1, 304s 0, unchanged 0, new 2, backfilled 0, merged 0, errors 0, not due 0\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if want := `warning: skipped feed "sebi": item "Order in the matter of an unregistered investment adviser"`; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	t.Run("NotDue", func(t *testing.T) {
		// Its cadence has not come round: no poll at all.
		out, _, err := ingest("--only", "sebi")
		if err != nil || strings.Contains(out, "wrote") || !strings.Contains(out, `not due: feed "sebi" until `) ||
			!strings.Contains(out, "ingest: 0 written, 0 already in the content, 0 skipped with a warning; polls 0, 304s 0, unchanged 0, new 0, backfilled 0, merged 0, errors 0, not due 1") {
			t.Errorf("second run: %v\n%s", err, out)
		}
	})
	t.Run("Force", func(t *testing.T) {
		out, _, err := ingest("--only", "sebi", "--force")
		if err != nil || strings.Contains(out, "wrote") || !strings.Contains(out, "ingest: 0 written, 2 already in the content, 1 skipped with a warning; polls 1, 304s 0, unchanged 0, new 0, backfilled 0, merged 0, errors 0, not due 0") {
			t.Errorf("forced run: %v\n%s", err, out)
		}
	})
	t.Run("Status", func(t *testing.T) {
		out, _, err := runCmd(t, "ingest", "status", "--feeds", feeds, "--data", data)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 4 || !strings.HasPrefix(lines[0], "FEED ") {
			t.Fatalf("status:\n%s", out)
		}
		for _, tt := range []struct{ line, want string }{
			{lines[1], `^rbi-notifications +RBI +never +STALE +due \(never polled\) +- +- +0$`},
			{lines[3], `^sebi +SEBI +\d{4}-\d\d-\d\d \d\d:\d\d IST +no +\d{4}-\d\d-\d\d \d\d:\d\d IST +parsed +0 of 2 \(0%\) +0$`},
		} {
			if !regexp.MustCompile(tt.want).MatchString(tt.line) {
				t.Errorf("status line %q, want %s", tt.line, tt.want)
			}
		}
	})
	t.Run("StaleToldOnce", func(t *testing.T) {
		// A feed that never answered is stale at its first failure: the
		// operator is told once, not at each failed poll.
		dir := t.TempDir()
		gone := filepath.Join(dir, "feeds.yaml")
		os.WriteFile(gone, []byte("feeds:\n  - {name: gone, url: nope.xml, source: RBI}\n"), 0o644)
		for range 2 {
			_, stderr, err := runCmd(t, "ingest", "--feeds", gone, "--content", content, "--data", dir, "--force", "--operator-email", "ops@example.org")
			if err == nil || !strings.Contains(stderr, `stale: feed "gone": no successful poll since never`) {
				t.Errorf("a missing feed: %v\n%s", err, stderr)
			}
		}
		mails, _ := filepath.Glob(filepath.Join(dir, "outbox", "operator", "*.eml"))
		if len(mails) != 1 {
			t.Fatalf("%d e-mails to the operator, want 1", len(mails))
		}
		if b, _ := os.ReadFile(mails[0]); !strings.Contains(string(b), "To: <ops@example.org>") || !strings.Contains(string(b), "ingest source gone is stale") {
			t.Errorf("the e-mail:\n%s", b)
		}
	})
	t.Run("ErrOnly", func(t *testing.T) {
		if _, _, err := ingest("--only", "fed"); err == nil || !strings.Contains(err.Error(), `no feed named "fed"`) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("ErrTimeout", func(t *testing.T) {
		if _, _, err := ingest("--timeout", "0s"); err == nil || !strings.Contains(err.Error(), "--timeout") {
			t.Errorf("err = %v", err)
		}
	})
}

func TestServe_ErrIngestFlags(t *testing.T) {
	tests := []struct{ args, want string }{
		{"--ingest-every 10s", "--ingest-every 10s is too short"},
		{"--ingest-every 1h --ingest-timeout 0s", "--ingest-timeout 0s"},
		{"--read-cache-size -1", "--read-cache-size -1"},
		{"--read-cache-ttl 0s", "--read-cache-ttl 0s"},
		{"--rebuild-memory-limit-mib -1", "--rebuild-memory-limit-mib -1"},
	}
	for _, tt := range tests {
		args := append([]string{"serve", "--public", t.TempDir()}, strings.Fields(tt.args)...)
		if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("serve %s: %v, want an error with %q", tt.args, err, tt.want)
		}
	}
}

// TestServe_Flags holds serve to the API's shared settings: every flag of
// app.Config, named as regpulse-api names it, and besides them only the
// site's and the schedules' own.
func TestServe_Flags(t *testing.T) {
	var usage bytes.Buffer
	if err := cmdServe(t.Context(), []string{"-h"}, &usage); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("serve -h: %v", err)
	}
	got := map[string]bool{}
	for _, line := range strings.Split(usage.String(), "\n") {
		if name, ok := strings.CutPrefix(line, "  -"); ok {
			got[strings.Fields(name)[0]] = true
		}
	}
	want := app.Flags()
	for _, own := range []string{"addr", "public", "templates", "assets", "base-url", "support-email",
		"rebuild-every", "rebuild-memory-limit-mib", "feeds", "ingest-every", "ingest-timeout", "operator-email", "digest-schedule", "from", "unsubscribe-mailto", "out", "alerts-every",
		"webhooks-every", "webhooks-retry-scale",
		"cms-repo", "cms-remote", "cms-branch", "cms-build-hook"} {
		want[own] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("serve's flags (-want +got):\n%s", diff)
	}
}

// TestRun_Help asks every command the usage lists for --help and -h: each
// prints its usage and exits 0, as Go's tools and scripts expect.
func TestRun_Help(t *testing.T) {
	_, commands, _ := strings.Cut(usage, "commands:\n")
	commands, _, _ = strings.Cut(commands, "\n\n")
	var names [][]string
	for line := range strings.Lines(commands) {
		if strings.HasPrefix(line, "   ") {
			continue // a command's description, continued
		}
		f := strings.Fields(line)
		if len(f) > 1 && (f[0] == "users") {
			names = append(names, f[:2])
		} else if len(f) > 0 {
			names = append(names, f[:1])
		}
	}
	if len(names) < 9 {
		t.Fatalf("found %d commands in the usage: %q", len(names), names)
	}
	names = append(names, nil, []string{"users"})
	for _, cmd := range names {
		for _, flag := range []string{"--help", "-h"} {
			args := append(slices.Clone(cmd), flag)
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				out, errOut, err := runCmd(t, args...)
				if code := exitCode(err); code != 0 {
					t.Errorf("exit %d (%v), want 0", code, err)
				}
				if !strings.Contains(strings.ToLower(out+errOut), "usage") {
					t.Errorf("printed %q, want the usage", out+errOut)
				}
			})
		}
	}
	t.Run("ErrUnknownFlag", func(t *testing.T) {
		if _, _, err := runCmd(t, "digest", "--no-such-flag"); exitCode(err) != 1 {
			t.Errorf("exit %d (%v), want 1", exitCode(err), err)
		}
	})
}

func TestRun_Version(t *testing.T) {
	out, _, err := runCmd(t, "version")
	if err != nil || !strings.HasPrefix(out, "regpulse ") || !strings.Contains(out, "built with go") {
		t.Errorf("version = %q, %v", out, err)
	}
}

func TestIngestDirection_Args(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ingest", "direction"}, "needs SLUG, --from and --date"},
		{[]string{"ingest", "direction", "ppi-2021", "--from", "x.pdf", "--date", "28-11-2026"}, "want YYYY-MM-DD"},
		{[]string{"ingest", "direction", "no-such", "--from", "x.pdf", "--url", "https://rbi.org.in/x", "--date", "2026-11-28", "--content", "../../content"}, "no Master Direction no-such"},
		{[]string{"ingest", "direction", "ppi-2021", "--from", "x.pdf", "--date", "2026-11-28", "--content", "../../content"}, "--url"},
	} {
		_, _, err := runCmd(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("regpulse %s: %v, want an error saying %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
}
