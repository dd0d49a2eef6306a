// Package smtptest is a real SMTP server (emersion/go-smtp) on loopback
// for tests of what RegPulse sends: it keeps every message by recipient
// and refuses the addresses it is told to with a permanent error.
package smtptest

import (
	"errors"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Server is the running server.
type Server struct {
	Addr string // host:port
	// Once refuses a second message to an address (a digest goes once).
	Once   bool
	mu     sync.Mutex
	got    map[string][][]byte
	reject []string
}

// Start starts a server refusing reject (any case) until the test ends.
func Start(t testing.TB, reject ...string) *Server {
	t.Helper()
	ms := &Server{got: map[string][][]byte{}, reject: reject}
	srv := smtp.NewServer(ms)
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ms.Addr = l.Addr().String()
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return ms
}

// URL is the server's SMTP_URL (no TLS: loopback).
func (ms *Server) URL() string { return "smtp://" + ms.Addr + "?tls=none" }

// Received is every message by recipient, in the order received.
func (ms *Server) Received() map[string][][]byte {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	out := map[string][][]byte{}
	for k, v := range ms.got {
		out[k] = slices.Clone(v)
	}
	return out
}

// NewSession is go-smtp's Backend.
func (ms *Server) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{ms: ms}, nil }

type session struct {
	ms *Server
	to []string
}

func (s *session) Mail(string, *smtp.MailOptions) error { return nil }

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if slices.ContainsFunc(s.ms.reject, func(r string) bool { return strings.EqualFold(r, to) }) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such mailbox"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.ms.mu.Lock()
	defer s.ms.mu.Unlock()
	for _, to := range s.to {
		if s.ms.Once && len(s.ms.got[to]) > 0 {
			return errors.New("test server: a second message to " + to)
		}
		s.ms.got[to] = append(s.ms.got[to], b)
	}
	return nil
}

func (s *session) Reset()        { s.to = nil }
func (s *session) Logout() error { return nil }
