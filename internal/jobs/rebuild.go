package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// BuildHookEnv names the host's build hook (a Netlify build hook URL).
const BuildHookEnv = "REGPULSE_BUILD_HOOK"

// Rebuilt is a rebuild asked of the host.
type Rebuilt struct{}

func (Rebuilt) String() string { return "rebuild: the host's build hook answered; a build is queued" }

// Rebuild asks the host to rebuild the site: it POSTs an empty body to
// $REGPULSE_BUILD_HOOK, as build hooks expect. On a static host its
// function is cmd/regpulse-rebuild (a small binary without the store,
// which does the same); `serve --rebuild-every` rebuilds in-process.
func Rebuild(ctx context.Context, env Env) (Rebuilt, error) {
	hook := env.getenv(BuildHookEnv)
	if hook == "" {
		return Rebuilt{}, errors.New(BuildHookEnv + " is not set: create a build hook and set it to the hook's URL")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, hook, nil)
	if err != nil {
		return Rebuilt{}, fmt.Errorf("%s: %w", BuildHookEnv, err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return Rebuilt{}, err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
	if res.StatusCode >= 300 {
		return Rebuilt{}, fmt.Errorf("build hook answered %s", res.Status)
	}
	return Rebuilt{}, nil
}
