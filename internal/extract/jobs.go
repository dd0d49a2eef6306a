package extract

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"regpulse/internal/metrics"
	"sync"
	"time"
)

// JobStatus is a background extraction's state.
type JobStatus string

// The job states.
const (
	JobRunning JobStatus = "running" // queued or reading pages
	JobDone    JobStatus = "done"    // Result is set
	JobFailed  JobStatus = "failed"  // Error is set
)

// Job is a long extraction (a scan with many pages) that a client polls.
type Job struct {
	ID     string    `json:"id"`
	Status JobStatus `json:"status" enum:"JobStatus"`
	Done   int       `json:"done"`   // scanned pages read so far
	Total  int       `json:"total"`  // scanned pages to read
	Result Result    `json:"result"` // when done; before, what is known (kind, pages, text layer's method)
	Error  string    `json:"error"`  // when failed: for a person; "" otherwise
}

// JobStatuses are the values of Job.Status.
var JobStatuses = []string{string(JobRunning), string(JobDone), string(JobFailed)}

// ErrBusy: too many jobs are waiting; try again later.
var ErrBusy = errors.New("too many documents are being processed")

// Jobs runs extractions in the background, one at a time (OCR uses a
// whole core), and keeps each finished job for a while so its client can
// collect it. Jobs live in memory: a restart loses them, and the client
// uploads again.
type Jobs struct {
	mu      sync.Mutex
	jobs    map[string]*jobEntry
	slot    chan struct{} // one running job
	queued  int
	maxWait int
	keep    time.Duration
	timeout time.Duration
	now     func() time.Time
}

type jobEntry struct {
	job      Job
	finished time.Time
}

// NewJobs keeps finished jobs for keep, runs each for at most timeout
// and refuses new ones while maxWait are waiting or running.
func NewJobs(maxWait int, keep, timeout time.Duration) *Jobs {
	return &Jobs{jobs: map[string]*jobEntry{}, slot: make(chan struct{}, 1), maxWait: maxWait,
		keep: keep, timeout: timeout, now: time.Now}
}

// Start runs d.Finish in the background and returns the job's first state.
// The job owns d from then on.
func (j *Jobs) Start(d *Doc) (Job, error) {
	j.mu.Lock()
	j.expire()
	if j.queued >= j.maxWait {
		j.mu.Unlock()
		return Job{}, ErrBusy
	}
	j.queued++
	id := newJobID()
	e := &jobEntry{job: Job{ID: id, Status: JobRunning, Total: d.OCRPending(), Result: d.Partial()}}
	j.jobs[id] = e
	snapshot := e.job
	j.mu.Unlock()

	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), j.timeout)
		defer cancel()
		select {
		case j.slot <- struct{}{}:
		case <-ctx.Done():
		}
		var res Result
		err := ctx.Err()
		if err == nil {
			res, err = d.Finish(ctx, func(done, total int) {
				j.mu.Lock()
				e.job.Done, e.job.Total = done, total
				j.mu.Unlock()
			})
			<-j.slot
		} else {
			d.Close()
		}
		j.mu.Lock()
		defer j.mu.Unlock()
		j.queued--
		e.finished = j.now()
		if err != nil {
			msg := "The document could not be processed."
			var xe *Error
			switch {
			case errors.As(err, &xe):
				msg = xe.Message
			case errors.Is(err, context.DeadlineExceeded):
				msg = "The document took too long to process."
			}
			e.job.Status, e.job.Error = JobFailed, msg
			metrics.ExtractJobs.WithLabelValues("failed").Inc()
			return
		}
		e.job.Status, e.job.Result = JobDone, res
		metrics.ExtractJobs.WithLabelValues("done").Inc()
	}()
	return snapshot, nil
}

// Get returns a job's state; false when there is no such job (never
// started, or finished longer ago than keep).
func (j *Jobs) Get(id string) (Job, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.expire()
	e, ok := j.jobs[id]
	if !ok {
		return Job{}, false
	}
	return e.job, true
}

func (j *Jobs) expire() {
	now := j.now()
	for id, e := range j.jobs {
		if !e.finished.IsZero() && now.Sub(e.finished) > j.keep {
			delete(j.jobs, id)
		}
	}
}

// newJobID is random and unguessable: a job's text is only for the
// client that uploaded the document.
func newJobID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
