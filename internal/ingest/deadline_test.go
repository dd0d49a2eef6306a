package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommentsDeadline(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string // want "" for no deadline
	}{
		{"on or before", "Comments on the draft may be sent on or before 15 January 2026.", "2026-01-15"},
		{"by, month first", "Comments/feedback on the draft directions may be submitted by January 15, 2026 through the link.", "2026-01-15"},
		{"latest by, ordinal", "Public comments are invited latest by 5th December 2025.", "2025-12-05"},
		{"far in the sentence", "Comments on the draft, with the paragraph they concern and reasons, may be sent by e-mail to the department at the address given above on or before 28.02.2026.", "2026-02-28"},
		{"slashes, day first", "Feedback may be given till 03/11/2025.", "2025-11-03"},
		{"weekday", "Suggestions are welcome by Friday, 14 November 2025.", "2025-11-14"},
		{"last date", "The last date for submission of comments is 30 June 2026.", "2026-06-30"},
		{"line breaks", "Comments may be sent\n  on or before\n 15 Jan\n 2026.", "2026-01-15"},
		{"iso", "Comments by 2026-03-31.", "2026-03-31"},
		{"abbreviated month with a dot", "Comments by Sept. 30, 2026.", "2026-09-30"},
		{"the publication date is not the deadline", "Dated 1 December 2025. Comments are invited within 30 days.", ""},
		{"a date before the word for comments", "On or before 15 January 2026 the rules apply. No comments.", ""},
		{"no such day", "Comments by 31 June 2026.", ""},
		{"no comments asked", "The directions come into force on 1 April 2026.", ""},
		{"too far after", "Comments are invited. " + strings.Repeat("The draft says many things. ", 20) + "It applies by 1 April 2026.", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := CommentsDeadline(tt.text)
			got := ""
			if ok {
				got = d.String()
			}
			if got != tt.want {
				t.Errorf("CommentsDeadline(%q) = %q, %v; want %q", tt.text, got, ok, tt.want)
			}
		})
	}
}

// A consultation-papers source writes its drafts as consultation papers
// with the comment deadline their text states, marked as a guess; a
// text with no deadline gets the type alone.
func TestRun_ConsultationDrafts(t *testing.T) {
	content := newContent(t)
	feed := filepath.Join(t.TempDir(), "papers.xml")
	rss := `<?xml version="1.0"?><rss version="2.0"><channel><title>Fixture consultation papers</title>
<item><title>Fixture consultation paper on payment fixtures</title><link>https://papers.example.org/cp/1</link>
<pubDate>Mon, 01 Dec 2025 10:00:00 +0530</pubDate>
<description>Comments on the fixture proposals may be sent on or before 15 January 2026.</description></item>
<item><title>Fixture discussion of nothing in particular</title><link>https://papers.example.org/cp/2</link>
<pubDate>Tue, 02 Dec 2025 10:00:00 +0530</pubDate>
<description>A paper that asks for views but names no date.</description></item>
</channel></rss>`
	if err := os.WriteFile(feed, []byte(rss), 0o644); err != nil {
		t.Fatal(err)
	}
	feeds := []Feed{{Name: "fixture-papers", URL: feed, Source: "SEBI", DocumentType: "consultation-paper"}}
	rep, err := Run(t.Context(), feeds, Options{ContentDir: content, Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Written) != 2 {
		t.Fatalf("wrote %v, want 2 drafts", writtenPaths(rep))
	}
	for _, w := range rep.Written {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(content), w.Path))
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if !strings.Contains(s, "\ndocumentType: consultation-paper\n") {
			t.Errorf("%s: no documentType:\n%s", w.Path, s)
		}
		wantDue := strings.Contains(w.Title, "payment fixtures")
		if got := strings.Contains(s, "\ncommentsDue: 2026-01-15 # guessed from the text: check it against the paper\n"); got != wantDue {
			t.Errorf("%s: commentsDue written %v, want %v:\n%s", w.Path, got, wantDue, s)
		}
	}
}
