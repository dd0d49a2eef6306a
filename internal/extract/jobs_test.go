package extract

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/extract/extracttest"
)

func TestJobs(t *testing.T) {
	tools := realTools(t, "pdftotext")
	tools.PDFToPPM, tools.Tesseract = extracttest.FakeOCR(t, "Scanned text.")
	ex := New(tools, Config{})
	jobs := NewJobs(1, time.Minute, time.Minute)
	d, err := ex.Open(t.Context(), extracttest.PDF(t, extracttest.ScanPage(t, scanLines...)), "")
	if err != nil {
		t.Fatal(err)
	}
	first, err := jobs.Start(d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Job{ID: first.ID, Status: JobRunning, Total: 1, Result: Result{Kind: PDF, Method: MethodPDFToText, Pages: 1}}, first); diff != "" {
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
	want := Job{ID: first.ID, Status: JobDone, Done: 1, Total: 1,
		Result: Result{Kind: PDF, Method: MethodOCR, Pages: 1, OCRPages: 1, Text: "Scanned text."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("finished job (-want +got):\n%s", diff)
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
