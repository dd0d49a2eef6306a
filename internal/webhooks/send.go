package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// UserAgent names the sender to receivers.
const UserAgent = "RegPulse-Webhooks/1"

// Timeout is the longest an attempt takes, from dialling to the end of
// the response kept.
const Timeout = 10 * time.Second

// Sender sends deliveries: over an http.Client that dials only what its
// AddressPolicy allows (checked on the address dialled, after DNS), takes
// no proxy from the environment and follows no redirect.
type Sender struct {
	Client   *http.Client
	Policy   AddressPolicy
	Schedule Schedule
	// Now is the clock of the attempts (nil: time.Now).
	Now func() time.Time
}

// NewSender is a sender under policy retrying on schedule (nil: the
// DefaultSchedule).
func NewSender(policy AddressPolicy, schedule Schedule) *Sender {
	if schedule == nil {
		schedule = DefaultSchedule
	}
	tr := &http.Transport{
		Proxy:                 nil, // never $HTTPS_PROXY: the policy checks the receiver's own address
		DialContext:           policy.DialContext(Timeout),
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   Timeout,
		ResponseHeaderTimeout: Timeout,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
	}
	return &Sender{Policy: policy, Schedule: schedule, Client: &http.Client{
		Transport: tr,
		Timeout:   Timeout,
		// A 3xx is the receiver's answer, a failure: following it could
		// lead anywhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

func (s *Sender) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// Request is the HTTP request of d's attempt at at: the event's payload
// signed at at for a webhook, its card as Block Kit or an Adaptive Card
// for a chat channel.
func Request(ctx context.Context, d Due, at time.Time) (*http.Request, error) {
	body := d.Payload
	if d.Endpoint.Kind != KindWebhook || body == nil {
		var err error
		if body, err = Body(d.Endpoint.Kind, d.Event); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.Endpoint.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	if d.Endpoint.Kind == KindWebhook {
		if err := SetHeaders(req.Header, d.Endpoint.Secret, d.Event.ID, at, body); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// Send makes d's attempt and answers its result: delivered on a 2xx;
// failed for good on 410 Gone (the endpoint is turned off) or past the
// schedule's last attempt; otherwise pending until its next attempt (a
// 3xx, 4xx, 5xx, a timeout, an address the policy refuses), a 429's or
// 503's Retry-After honoured within the schedule.
func (s *Sender) Send(ctx context.Context, d Due) Result {
	at := s.now()
	first := at
	if d.FirstAt != nil {
		first = *d.FirstAt
	}
	if len(s.Schedule) > 0 && at.Sub(first) > s.Schedule[len(s.Schedule)-1] {
		// a resend past the schedule: its failure counts against the
		// endpoint from now, not from the delivery's first attempt
		first = at
	}
	r := Result{DeliveryID: d.DeliveryID, EndpointID: d.Endpoint.ID, Kind: d.Endpoint.Kind, FirstAt: first,
		Attempt: Attempt{N: d.N, At: at}}
	code, response, retryAfter, err := s.do(ctx, d, at)
	r.Attempt.DurationMS = int(s.now().Sub(at) / time.Millisecond)
	r.Attempt.StatusCode, r.Attempt.Response = code, response
	if err != nil {
		r.Attempt.Error = err.Error()
	}
	switch {
	case err == nil && code >= 200 && code < 300:
		r.Status = Delivered
		return r
	case err == nil && code == http.StatusGone:
		r.Status, r.Gone = Failed, true
		return r
	case err == nil && code >= 300 && code < 400:
		r.Attempt.Error = "redirect not followed"
	case err == nil:
		r.Attempt.Error = http.StatusText(code)
	}
	if next, ok := s.Schedule.Next(d.N, first, at, retryAfter); ok {
		r.Status, r.NextAttemptAt = Pending, next
	} else {
		r.Status = Failed
	}
	return r
}

// do sends d's request and reads the answer's start.
func (s *Sender) do(ctx context.Context, d Due, at time.Time) (code int, response string, retryAfter time.Duration, err error) {
	if err := s.Policy.CheckURL(d.Endpoint.URL); err != nil {
		return 0, "", 0, err
	}
	req, err := Request(ctx, d, at)
	if err != nil {
		return 0, "", 0, err
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		return 0, "", 0, attemptError(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, ResponseKept))
	// What is left is drained a little, so the connection is reused.
	io.CopyN(io.Discard, resp.Body, 64<<10)
	if err != nil && len(b) == 0 {
		return resp.StatusCode, "", 0, attemptError(err)
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), at)
	}
	return resp.StatusCode, keptText(b), retryAfter, nil
}

// attemptError is err as an attempt's log shows it: short, without the
// URL (the log shows the endpoint's).
func attemptError(err error) error {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			err = inner
		}
	}
	var ne net.Error
	switch {
	case errors.Is(err, ErrAddress):
		return err
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return fmt.Errorf("no answer within %s", Timeout)
	}
	return err
}

// parseRetryAfter reads a Retry-After (seconds or an HTTP date) at at.
func parseRetryAfter(v string, at time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(at) {
		return t.Sub(at)
	}
	return 0
}

// keptText is b as text: valid UTF-8 (invalid bytes replaced).
func keptText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
