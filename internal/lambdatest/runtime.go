// Package lambdatest is the part of the Lambda Runtime API a Go function
// calls, served locally, so tests can run a built function binary as
// Netlify (AWS Lambda) runs it: one event handed out, the next poll kept
// waiting as a frozen instance's is, and the answer or failure recorded.
package lambdatest

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Runtime serves one event; make it with New.
type Runtime struct {
	event    []byte
	arn      string
	served   sync.Once
	Polled   chan time.Time // when the function first asked for an event
	Answered chan []byte    // its answer to the event
	Failed   chan []byte    // an init or invocation error it reported
}

// New is a runtime handing out event to the function named by arn.
func New(event []byte, arn string) *Runtime {
	return &Runtime{event: event, arn: arn, Polled: make(chan time.Time, 1),
		Answered: make(chan []byte, 1), Failed: make(chan []byte, 1)}
}

func (f *Runtime) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	switch {
	case r.URL.Path == "/2018-06-01/runtime/invocation/next":
		first := false
		f.served.Do(func() { first = true })
		if !first {
			<-r.Context().Done() // a frozen instance waits for its next event
			return
		}
		f.Polled <- time.Now()
		w.Header().Set("Lambda-Runtime-Aws-Request-Id", "req-1")
		w.Header().Set("Lambda-Runtime-Deadline-Ms", "9999999999999")
		w.Header().Set("Lambda-Runtime-Invoked-Function-Arn", f.arn)
		w.Write(f.event)
	case strings.HasSuffix(r.URL.Path, "/response"):
		f.Answered <- body
		w.WriteHeader(http.StatusAccepted)
	default: // /init/error, /invocation/{id}/error
		f.Failed <- body
		w.WriteHeader(http.StatusAccepted)
	}
}
