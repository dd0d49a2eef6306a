// Package pgtest gives tests a PostgreSQL database of their own: one
// throwaway cluster per test process (initdb and pg_ctl in a temporary
// folder, listening on a free loopback port only, never the system's
// cluster), a fresh database per test. Run it from TestMain (Main), which
// stops the cluster when the tests end.
//
// Without PostgreSQL installed the tests that ask for it skip, saying what
// to install; under CI=true they fail instead, so CI cannot pass without
// running them.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// Hint is what to install when PostgreSQL is missing.
const Hint = "PostgreSQL is not installed: `make postgres` (as root: apt-get install postgresql postgresql-contrib) runs these tests"

type cluster struct {
	bin, dir string
	port     int
	cred     *syscall.Credential // the postgres user's, when run as root
	admin    *sql.DB
	err      error
}

var (
	once    sync.Once
	running *cluster
	serial  atomic.Int64
	tmplMu  sync.Mutex
	tmpls   = map[string]error{}
)

// Main runs the tests and stops the cluster if one was started.
func Main(m *testing.M) int {
	code := m.Run()
	if running != nil && running.err == nil {
		running.stop()
	}
	return code
}

// Available reports whether PostgreSQL's server programs are installed.
func Available() bool { _, err := binDir(); return err == nil }

// binDir finds initdb and pg_ctl: $PGTEST_BINDIR when set, else where
// pg_config says; Debian keeps them off PATH, under
// /usr/lib/postgresql/<version>/bin (the newest version wins).
func binDir() (string, error) {
	if dir := os.Getenv("PGTEST_BINDIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err != nil {
			return "", errors.New(Hint)
		}
		return dir, nil
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dir := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	slices.SortFunc(matches, func(a, b string) int { return version(b) - version(a) })
	if len(matches) == 0 {
		return "", errors.New(Hint)
	}
	return filepath.Dir(matches[0]), nil
}

func version(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

// get starts the cluster on first use; t skips (or fails under CI=true)
// when it cannot.
func get(t testing.TB) *cluster {
	t.Helper()
	once.Do(func() { running = start() })
	if running.err != nil {
		if errors.Is(running.err, errMissing) && os.Getenv("CI") != "true" {
			t.Skip(running.err)
		}
		t.Fatalf("pgtest: %v", running.err)
	}
	return running
}

var errMissing = errors.New(Hint)

func start() *cluster {
	c := &cluster{}
	var err error
	if c.bin, err = binDir(); err != nil {
		c.err = errMissing
		return c
	}
	if c.dir, err = os.MkdirTemp("", "regpulse-pgtest-"); err != nil {
		c.err = err
		return c
	}
	// initdb refuses to run as root: run the server as postgres.
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			c.err = fmt.Errorf("running as root needs the postgres user: %w", err)
			return c
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(c.dir, uid, gid); err != nil {
			c.err = err
			return c
		}
	}
	data := filepath.Join(c.dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync"); err != nil {
		c.err = fmt.Errorf("initdb: %v: %s", err, out)
		return c
	}
	// A port can be taken between choosing and binding it: try a few.
	for range 5 {
		c.port, err = freePort()
		if err != nil {
			break
		}
		opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=64MB", c.port, c.dir)
		var out []byte
		if out, err = c.run("pg_ctl", "-D", data, "-o", opts, "-l", filepath.Join(c.dir, "log"), "-w", "-t", "60", "start"); err != nil {
			log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
			err = fmt.Errorf("pg_ctl start: %v: %s\n%s", err, out, log)
			continue
		}
		break
	}
	if err != nil {
		c.err = err
		return c
	}
	c.watch()
	c.admin, err = sql.Open("pgx", c.url("postgres"))
	if err == nil {
		err = c.admin.Ping()
	}
	c.err = err
	return c
}

func (c *cluster) run(prog string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(c.bin, prog), args...)
	cmd.Dir = c.dir
	if c.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	}
	return cmd.CombinedOutput()
}

// watch starts a watchdog that stops the cluster and removes its folder
// once this process is gone, should it end without Main's cleanup (a
// test timeout, a crash). It is its own process group, so it outlives
// the test binary; SIGQUIT is the server's immediate shutdown.
func (c *cluster) watch() {
	script := fmt.Sprintf(`while kill -0 %d 2>/dev/null; do sleep 1; done
kill -QUIT "$(head -n 1 %[2]s/data/postmaster.pid 2>/dev/null)" 2>/dev/null
sleep 2; rm -rf %[2]s`, os.Getpid(), c.dir)
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if cmd.Start() == nil {
		go cmd.Wait()
	}
}

func (c *cluster) stop() {
	c.admin.Close()
	c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(c.dir)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func (c *cluster) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// URL creates a fresh, empty database for t, dropped when t ends, and
// returns its connection URL.
func URL(t testing.TB) string { t.Helper(); return From(t, "") }

// From is URL with a database copied from template (see Template).
func From(t testing.TB, template string) string {
	t.Helper()
	c := get(t)
	name := fmt.Sprintf("t%d_%d", os.Getpid(), serial.Add(1))
	q := "CREATE DATABASE " + name
	if template != "" {
		q += " TEMPLATE " + template
	}
	if _, err := c.admin.ExecContext(context.Background(), q); err != nil {
		t.Fatalf("pgtest: %s: %v", q, err)
	}
	t.Cleanup(func() {
		c.admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return c.url(name)
}

// Template makes, once per test process, a database named name filled by
// fill (migrations, say), for From to copy: copying is much faster than
// filling each test's database again. fill must close its connections.
func Template(t testing.TB, name string, fill func(ctx context.Context, url string) error) string {
	t.Helper()
	c := get(t)
	tmplMu.Lock()
	defer tmplMu.Unlock()
	err, done := tmpls[name]
	if !done {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if _, err = c.admin.ExecContext(ctx, "CREATE DATABASE "+name); err == nil {
			err = fill(ctx, c.url(name))
		}
		tmpls[name] = err
	}
	if err != nil {
		t.Fatalf("pgtest: template %s: %v", name, err)
	}
	return name
}
