package ingest

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// UserAgent names RegPulse to the regulators' servers; Options.Contact
// adds an address to it (userAgent), so a webmaster can write to us
// rather than block us.
const UserAgent = "RegPulse-ingest/1.0 (+https://regpulse.in)"

// userAgent is UserAgent with contact in its comment, when given.
func userAgent(contact string) string {
	if contact == "" {
		return UserAgent
	}
	return strings.TrimSuffix(UserAgent, ")") + "; " + contact + ")"
}

// DefaultMaxBytes caps a feed's size: the regulators' feeds are a few
// hundred kilobytes, so anything far larger is not a feed.
const DefaultMaxBytes = 5 << 20

// maxRetryAfter caps the wait a server's Retry-After asks for: a server
// saying "a year" is not left unpolled for a year.
const maxRetryAfter = 24 * time.Hour

// errTooLarge is returned for a feed larger than the cap.
var errTooLarge = errors.New("larger than the size cap")

// fetch reads a feed from its URL or file, at most max bytes, within ctx.
func fetch(ctx context.Context, client *http.Client, src string, max int64) ([]byte, error) {
	resp, err := fetchConditional(ctx, client, src, max, UserAgent, Validators{})
	return resp.Body, err
}

// response is what a conditional fetch got.
type response struct {
	Status int // the HTTP status (0 for a file)
	// NotModified: a 304 to the validators sent; Body is nil.
	NotModified bool
	Body        []byte
	// Validators to send next time: the answer's ETag and Last-Modified
	// (the ones sent, on a 304 that repeats none) and the body's SHA-256.
	Validators Validators
}

// statusError is an answer other than 200 or 304; RetryAfter is what a
// 429 or 503 asked us to wait (0 when it said nothing).
type statusError struct {
	URL        string
	Status     string
	Code       int
	RetryAfter time.Duration
}

func (e *statusError) Error() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("GET %s: %s (retry after %s)", e.URL, e.Status, e.RetryAfter)
	}
	return fmt.Sprintf("GET %s: %s", e.URL, e.Status)
}

// fetchConditional reads src as fetch does, sending v's ETag and
// Last-Modified (If-None-Match, If-Modified-Since) to an http(s) source:
// a 304 reads no body. A file has no validators, only the body's hash.
func fetchConditional(ctx context.Context, client *http.Client, src string, max int64, ua string, v Validators) (response, error) {
	var r io.ReadCloser
	out := response{}
	if isURL(src) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, src, nil)
		if err != nil {
			return out, err
		}
		req.Header.Set("User-Agent", ua)
		req.Header.Set("Accept", "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1")
		if v.ETag != "" {
			req.Header.Set("If-None-Match", v.ETag)
		}
		if v.LastModified != "" {
			req.Header.Set("If-Modified-Since", v.LastModified)
		}
		resp, err := client.Do(req)
		if err != nil {
			return out, err
		}
		out.Status = resp.StatusCode
		switch resp.StatusCode {
		case http.StatusOK:
		case http.StatusNotModified:
			resp.Body.Close()
			out.NotModified = true
			out.Validators = Validators{ETag: cmp.Or(resp.Header.Get("ETag"), v.ETag),
				LastModified: cmp.Or(resp.Header.Get("Last-Modified"), v.LastModified), BodySHA256: v.BodySHA256}
			return out, nil
		default:
			resp.Body.Close()
			e := &statusError{URL: src, Status: resp.Status, Code: resp.StatusCode}
			if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
				e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), time.Now())
			}
			return out, e
		}
		out.Validators = Validators{ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
		r = resp.Body
	} else {
		f, err := os.Open(src)
		if err != nil {
			return out, err
		}
		r = f
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return out, err
	}
	if int64(len(data)) > max {
		return out, fmt.Errorf("%s: %w of %d bytes", src, errTooLarge, max)
	}
	sum := sha256.Sum256(data)
	out.Body, out.Validators.BodySHA256 = data, hex.EncodeToString(sum[:])
	return out, nil
}

// retryAfter reads a Retry-After header, seconds or an HTTP date, as a
// wait from now, capped at maxRetryAfter (0 when absent or unreadable).
func retryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.Atoi(h); err == nil {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(h); err == nil {
		d = t.Sub(now)
	}
	return min(max(d, 0), maxRetryAfter)
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
