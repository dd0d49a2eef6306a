// Command regpulse-rebuild asks the host to rebuild the site: it POSTs to
// the build hook in $REGPULSE_BUILD_HOOK (a Netlify build hook URL). As a
// scheduled Netlify function (netlify.toml: @daily) it makes the static
// pages show what the API stored since the last build (AI summaries) and
// the catalog's dates move on; run by hand or cron it does the same once.
// On one machine, `regpulse serve --rebuild-every` rebuilds in-process.
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"regpulse/internal/buildhook"
)

// HookEnv names the build hook's URL.
const HookEnv = "REGPULSE_BUILD_HOOK"

func main() {
	hook := os.Getenv(HookEnv)
	if os.Getenv("AWS_LAMBDA_RUNTIME_API") != "" {
		lambda.Start(func(ctx context.Context) error { return trigger(ctx, http.DefaultClient, hook) })
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := trigger(ctx, http.DefaultClient, hook); err != nil {
		fmt.Fprintln(os.Stderr, "regpulse-rebuild:", err)
		os.Exit(1)
	}
}

// trigger POSTs an empty body to hook, as build hooks expect.
func trigger(ctx context.Context, c *http.Client, hook string) error {
	if hook == "" {
		return errors.New(HookEnv + " is not set: create a build hook and set it to the hook's URL")
	}
	return buildhook.Post(ctx, c, hook)
}
