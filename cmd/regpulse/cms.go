package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"gopkg.in/yaml.v3"

	"regpulse/api"
	"regpulse/internal/buildhook"
	"regpulse/internal/cms"
	"regpulse/internal/cms/cmsrepo"
	"regpulse/internal/cmsconfig"
	"regpulse/internal/web"
)

// The editors' web UI (Decap CMS at /admin) has two backends, both
// internal/cms/cmsrepo's: serve --cms-repo answers it over the server's clone of
// the content repository (drafts, review, publish, push, rebuild at
// once), and regpulse cms over an editor's own working tree.

// The repository's layout the CMS writes in (docs/CONTENT.md).
const (
	cmsContentDir = "content"
	cmsMediaDir   = "media"
)

// cmsFlags are serve's flags of the editors' backend.
type cmsFlags struct {
	repo, remote, branch, hook string
}

func (f *cmsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.repo, "cms-repo", "", "serve the editors' web UI's backend (/api/cms) over this git clone of the content repository; its content/ is then the site's --content (empty: no backend)")
	fs.StringVar(&f.remote, "cms-remote", "origin", "the clone's remote a publish is pushed to (it triggers the static host's deploy); empty: push nowhere")
	fs.StringVar(&f.branch, "cms-branch", "main", "the clone's published branch")
	fs.StringVar(&f.hook, "cms-build-hook", "", "a build hook's URL POSTed after each publish (a static host not linked to the remote, e.g. Netlify's Build hooks); empty: none, the push alone deploys")
}

// content is the content directory of the clone, and checks that
// --content (when given) names it: the site is built from what the CMS
// publishes, or a publish would never show.
func (f cmsFlags) content(given string, set bool) (string, error) {
	dir := filepath.Join(f.repo, cmsContentDir)
	if !set {
		return dir, nil
	}
	a, errA := filepath.Abs(given)
	b, errB := filepath.Abs(dir)
	if errA != nil || errB != nil || a != b {
		return "", fmt.Errorf("--content %s is not --cms-repo's content %s: the site must be built from what the CMS publishes (leave --content out)", given, dir)
	}
	return dir, nil
}

// open opens the Git backend over the clone; published is called after
// each publish (serve rebuilds at once).
func (f cmsFlags) open(published func(paths []string), log *slog.Logger) (*cmsrepo.GitBackend, error) {
	if st, err := os.Stat(filepath.Join(f.repo, cmsContentDir)); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("--cms-repo %s: no %s/ folder: give the root of a clone of the content repository", f.repo, cmsContentDir)
	}
	return cmsrepo.Git(cmsrepo.GitConfig{Dir: f.repo, Branch: f.branch, Remote: f.remote, ContentDir: cmsContentDir, MediaDir: cmsMediaDir,
		Validate: contentValidator(f.repo), Published: published, Log: log})
}

// published is what a publish does besides the push: rebuild this
// server's site at once (rebuild) and, when a build hook is set, ask the
// static host to rebuild too.
func (f cmsFlags) published(ctx context.Context, rebuild func(), log *slog.Logger) func(paths []string) {
	return func(paths []string) {
		rebuild()
		if f.hook == "" {
			return
		}
		go func() {
			ctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			if err := buildhook.Post(ctx, http.DefaultClient, f.hook); err != nil {
				log.Error("cms: the build hook failed; the remote has the publish, deploy it by hand", "paths", paths, "err", err)
			}
		}()
	}
}

// contentValidator is the site's loader as the CMS's check before any
// write (cmsconfig.Validator): the changes laid over root's content/,
// which must load as the build would load it.
func contentValidator(root string) cms.Validator {
	return cmsconfig.Validator(os.DirFS(filepath.Join(root, cmsContentDir)), cmsContentDir, cmsMediaDir, time.Now)
}

// cmdCMS is regpulse cms: the editors' web UI on an editor's own machine
// (what `npx decap-server` is for Decap, with no Node), over the working
// tree: the CMS writes the files, the editor reviews and commits them
// with git as usual. No sign-in, so it listens on loopback only and
// answers only requests addressed to it there.
func cmdCMS(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlagSet("cms", stderr)
	dir := fs.String("dir", ".", "root of the content repository's working tree (content/, media/)")
	addr := fs.String("addr", "127.0.0.1:8081", "loopback address to listen on (the CMS has no sign-in here)")
	public := fs.String("public", "", "built site holding /admin (regpulse build); default DIR/public")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("cms takes no arguments, got %q", fs.Args())
	}
	if err := loopbackOnly(*addr); err != nil {
		return err
	}
	if *public == "" {
		*public = filepath.Join(*dir, "public")
	}
	if _, err := os.Stat(filepath.Join(*public, "admin", "index.html")); err != nil {
		return fmt.Errorf("%s has no admin/index.html: build the site first (regpulse build --out %s)", *public, *public)
	}
	if st, err := os.Stat(filepath.Join(*dir, cmsContentDir)); err != nil || !st.IsDir() {
		return fmt.Errorf("--dir %s: no %s/ folder: run regpulse cms at the root of the content repository", *dir, cmsContentDir)
	}
	site, err := web.NewSite(*public)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	who, err := gitPerson(*dir)
	if err != nil {
		return err
	}
	backend, err := cmsrepo.Files(cmsrepo.FilesConfig{Dir: *dir, ContentDir: cmsContentDir, MediaDir: cmsMediaDir,
		Validate: contentValidator(*dir), Log: log})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	log.Info("the editors' web UI on your working tree", "url", "http://"+ln.Addr().String()+"/admin/", "as", who.Name+" <"+who.Email+">")
	return web.ServeListener(ctx, ln, localCMSHandler(site, *public, api.LocalCMS(backend, who, log)), log)
}

// localCMSHandler serves the built site with /api/cms, and /admin's
// configuration without the editorial workflow (an editor's own tree has
// no drafts: git is their review). Requests must name a loopback host and
// writes come from the page's own origin: a web page elsewhere cannot
// reach the working tree through the browser (DNS rebinding, a form
// posted across sites).
func localCMSHandler(site *web.Site, public string, cmsAPI http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/cms", cmsAPI)
	mux.HandleFunc("GET /admin/config.yml", func(w http.ResponseWriter, r *http.Request) {
		b, err := os.ReadFile(filepath.Join(public, "admin", "config.yml"))
		if err == nil {
			b, err = simplePublishing(b)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/yaml; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(b)
	})
	mux.Handle("/", site)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			http.Error(w, "regpulse cms answers requests to localhost only", http.StatusMisdirectedRequest)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if o := r.Header.Get("Origin"); o != "" {
				if u, err := url.Parse(o); err != nil || u.Host != r.Host {
					http.Error(w, "cross-origin write refused", http.StatusForbidden)
					return
				}
			}
		}
		mux.ServeHTTP(w, r)
	})
}

// simplePublishing rewrites Decap's configuration for an editor's own
// tree: publish_mode simple (saves write the files), whatever the
// generated one says.
func simplePublishing(config []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(config, &doc); err != nil {
		return nil, fmt.Errorf("admin/config.yml: %w", err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("admin/config.yml is not a mapping")
	}
	m := doc.Content[0]
	found := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "publish_mode" {
			m.Content[i+1].SetString("simple")
			found = true
		}
	}
	if !found {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "publish_mode"}, &yaml.Node{Kind: yaml.ScalarNode, Value: "simple"})
	}
	return yaml.Marshal(&doc)
}

// loopbackOnly refuses an address that is not a loopback one: regpulse
// cms writes to the working tree for whoever reaches it.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if !loopbackHost(host) {
		return fmt.Errorf("--addr %s: regpulse cms has no sign-in, so it listens on loopback only (127.0.0.1:PORT, [::1]:PORT or localhost:PORT)", addr)
	}
	return nil
}

// loopbackHost reports whether host (with or without a port) names this
// machine's loopback interface.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// gitPerson is the editor as git knows them: user.name and user.email
// of the repository at dir and of the global ~/.gitconfig (read with
// go-git: no git binary needed), else the system's user name.
func gitPerson(dir string) (cms.Person, error) {
	var name, email string
	if repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true}); err == nil {
		if c, err := repo.ConfigScoped(gitconfig.GlobalScope); err == nil {
			name, email = c.User.Name, c.User.Email
		}
	} else if c, err := gitconfig.LoadConfig(gitconfig.GlobalScope); err == nil {
		name, email = c.User.Name, c.User.Email
	}
	if name == "" {
		u, err := user.Current()
		if err != nil {
			return cms.Person{}, errors.New("no git user.name: set one with git config --global user.name \"Your Name\"")
		}
		name = u.Username
	}
	return cms.Person{ID: "local", Name: name, Email: email, Role: cms.RoleEditor}, nil
}
