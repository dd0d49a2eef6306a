package extract

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestJobs(t *testing.T) {
	tools := realTools(t, "pdftotext")
	tools.Tesseract = "" // the scanned page is reported image-based at once
	ex := New(tools, Config{})
	jobs := NewJobs(1, time.Minute, time.Minute)
	d, err := ex.Open(t.Context(), buildPDF(t, scanPage(t, scanLines...)))
	if err != nil {
		t.Fatal(err)
	}
	first, err := jobs.Start(d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Job{ID: first.ID, Status: JobRunning, Total: 1}, first); diff != "" {
		t.Errorf("first state (-want +got):\n%s", diff)
	}
	var got Job
	for {
		var ok bool
		if got, ok = jobs.Get(first.ID); !ok {
			t.Fatal("job gone")
		}
		if got.Status != JobRunning {
			break
		}
		select {
		case <-t.Context().Done():
			t.Fatal("job never finished")
		case <-time.After(10 * time.Millisecond):
		}
	}
	if got.Status != JobDone || got.Result == nil || !got.Result.IsImageBased {
		t.Errorf("got %+v; want done and image-based", got)
	}
	if _, ok := jobs.Get("nope"); ok {
		t.Error("an unknown job was found")
	}
	t.Run("Expire", func(t *testing.T) {
		jobs.now = func() time.Time { return time.Now().Add(2 * time.Minute) }
		if _, ok := jobs.Get(first.ID); ok {
			t.Error("a job finished longer ago than keep is still there")
		}
	})
}
