package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// UserAgent names RegPulse to the regulators' servers.
const UserAgent = "RegPulse-ingest/1.0 (+https://regpulse.in)"

// DefaultMaxBytes caps a feed's size: the regulators' feeds are a few
// hundred kilobytes, so anything far larger is not a feed.
const DefaultMaxBytes = 5 << 20

// errTooLarge is returned for a feed larger than the cap.
var errTooLarge = errors.New("larger than the size cap")

// fetch reads a feed from its URL or file, at most max bytes, within ctx.
func fetch(ctx context.Context, client *http.Client, src string, max int64) ([]byte, error) {
	var r io.ReadCloser
	if isURL(src) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", UserAgent)
		req.Header.Set("Accept", "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1")
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return nil, fmt.Errorf("GET %s: %s", src, resp.Status)
		}
		r = resp.Body
	} else {
		f, err := os.Open(src)
		if err != nil {
			return nil, err
		}
		r = f
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w of %d bytes", src, errTooLarge, max)
	}
	return data, nil
}

// xmlEncoding finds the encoding an XML declaration names.
var xmlEncoding = regexp.MustCompile(`^\s*<\?xml[^>]*\sencoding=["']([^"']+)["']`)

// asUTF8 repairs a feed that says it is UTF-8 (or says nothing) but is
// not: RBI's feeds have carried Windows-1252 dashes and quotes, which the
// XML parser rejects, losing the whole feed for one character.
func asUTF8(data []byte) []byte {
	if utf8.Valid(data) {
		return data
	}
	if m := xmlEncoding.FindSubmatch(data); m != nil && !strings.EqualFold(string(m[1]), "utf-8") {
		return data // another encoding, which the parser reads itself
	}
	fixed, err := charmap.Windows1252.NewDecoder().Bytes(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if err != nil {
		return data
	}
	return fixed
}
