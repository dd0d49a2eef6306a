package catalog

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one thing wrong with one content file, reported so that an
// editor can jump straight to it: path:line: field: message.
type Problem struct {
	Path    string // relative to the content directory's parent, e.g. content/circulars/x.md
	Line    int    // 1-based line in the file; 0 when the problem is the whole file
	Field   string // front-matter field, or "body" / "file"
	Message string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.Path, p.Line, p.Field, p.Message)
}

// Problems is every problem found in a content tree. It is an error so
// Load can return all of them at once.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return fmt.Sprintf("%d content problem(s):\n%s", len(ps), strings.Join(lines, "\n"))
}

func (ps Problems) sorted() Problems {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Path != ps[j].Path {
			return ps[i].Path < ps[j].Path
		}
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Field < ps[j].Field
	})
	return ps
}
