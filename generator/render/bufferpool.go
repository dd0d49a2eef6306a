package render

import (
	"bytes"
	"sync"

	"github.com/gohugoio/hugo/bufferpool"
)

// largeBuffer is the capacity above which a buffer of Hugo's pool is
// dropped after a run (dropLargeBuffers): a page's HTML is under 300 KB.
const largeBuffer = 1 << 20

// dropLargeBuffers takes the buffers larger than largeBuffer out of
// Hugo's package-wide pool, keeping the others. Hugo reads each run's
// data file (hugo.Data.site: tens of MB in a run of cards) through a
// buffer of that pool, which keeps the capacity it grew to; pages
// rendered in the next run take such buffers and put them back, so the
// collector never frees them. Each run left one more behind: at 10,000
// circulars 200 MB by the 17th run, at 100,000 some 12 MB more each run,
// room the collector then lacked (docs/BENCHMARKS.md).
//
// sync.Pool has no way to empty it: the pool is drained by taking
// buffers until it makes a new one (empty), and the small ones are put
// back. A buffer another core holds privately stays; it is one.
func dropLargeBuffers() {
	var keep []*bytes.Buffer
	for range 1 << 16 {
		b := bufferpool.GetBuffer()
		if b.Cap() == 0 { // made new: the pool is empty
			break
		}
		if b.Cap() <= largeBuffer {
			keep = append(keep, b)
		}
	}
	for _, b := range keep {
		bufferpool.PutBuffer(b)
	}
}

// pageBuffers hold the pages Hugo publishes (publishedFile) and what the
// build makes of them before they are written (a frame filled, the
// cards and items set in: frames.go), reused from page to page. Each
// page was three to five new slices of its size: at 10,000 circulars
// 5.3 GB of the build's 15 GB of allocations, which the collector paid
// for in cycles, each marking the whole live heap.
var pageBuffers = sync.Pool{New: func() any { return new([]byte) }}

// pageBuffer is an empty buffer of pageBuffers, for putPageBuffer once
// nothing holds its bytes.
func pageBuffer() *[]byte {
	b := pageBuffers.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

// putPageBuffer gives b back to pageBuffers, unless it grew past
// largeBuffer (a page is under 300 KB; a larger file is rare).
func putPageBuffer(b *[]byte) {
	if cap(*b) <= largeBuffer {
		pageBuffers.Put(b)
	}
}
