package render

import (
	"cmp"
	"os"
	"sync"
)

// writeBehindFiles is how many written pages' bytes may wait in the page
// cache before the oldest are let go: some 40 MB of 80 KB pages.
const writeBehindFiles = 512

// writeBehind writes a build's output files and keeps them from filling
// the page cache. A fresh build at 100,000 circulars writes some 20 GB
// of pages that nothing reads again while it runs; left in the page
// cache they fill the memory, and from then on every write pays for the
// kernel's reclaim in the writing process (a test writing 230,000 pages
// of 87 KB on this host: 100 s of system CPU, against 24 s with their
// cache let go). Each file's writeback is started as soon as it is
// written and the file kept open; once writeBehindFiles newer ones are
// written its cached pages are dropped (most are on disk by then; a page
// still being written back stays cached, which is harmless) and it is
// closed: what PostgreSQL's backend_flush_after does for the same
// reason. Where the system has no such calls (not Linux) a file is
// written and closed, as os.WriteFile does.
type writeBehind struct {
	mu   sync.Mutex
	open []*os.File // written, oldest first
	err  error      // the first failure to close one, reported by the next write or close
}

// write writes data to the file at name, as os.WriteFile(name, data,
// 0o644) does.
func (w *writeBehind) write(name string, data []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if !startWriteback(f) {
		return f.Close()
	}
	w.mu.Lock()
	w.open = append(w.open, f)
	var oldest *os.File
	if len(w.open) > writeBehindFiles {
		oldest = w.open[0]
		w.open[0] = nil
		w.open = w.open[1:]
	}
	err = w.err
	w.mu.Unlock()
	if oldest != nil {
		dropCached(oldest)
		if cerr := oldest.Close(); cerr != nil {
			w.fail(cerr)
		}
	}
	return err
}

// close closes every file still open, their bytes left cached, and
// reports the first failure to close any written file.
func (w *writeBehind) close() error {
	w.mu.Lock()
	open := w.open
	w.open = nil
	w.mu.Unlock()
	for _, f := range open {
		if err := f.Close(); err != nil {
			w.fail(err)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *writeBehind) fail(err error) {
	w.mu.Lock()
	w.err = cmp.Or(w.err, err)
	w.mu.Unlock()
}
