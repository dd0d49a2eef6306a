package ingest

import (
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
