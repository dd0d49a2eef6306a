// Package buildhook asks a static host to build the site: a build hook
// (Netlify's, and most hosts' alike) is a URL that an empty POST triggers.
// The scheduled rebuild function and serve's CMS, after a publish, both
// call it.
package buildhook

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Post POSTs an empty body to hook with c and reads the answer: any
// status from 300 up is an error naming it.
func Post(ctx context.Context, c *http.Client, hook string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, hook, nil)
	if err != nil {
		return fmt.Errorf("build hook: %w", err)
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
	if res.StatusCode >= 300 {
		return fmt.Errorf("build hook answered %s", res.Status)
	}
	return nil
}
