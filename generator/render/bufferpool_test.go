package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gohugoio/hugo/bufferpool"
)

// poolLargest drains Hugo's buffer pool and returns the largest capacity
// it held.
func poolLargest() int {
	largest := 0
	for range 1 << 16 {
		b := bufferpool.GetBuffer()
		if b.Cap() == 0 {
			break
		}
		largest = max(largest, b.Cap())
	}
	return largest
}

// TestRender_DropsLargeBuffers: after a render whose runs read a data
// file of megabytes through Hugo's buffer pool, the pool holds no buffer
// larger than largeBuffer, and small ones are kept.
func TestRender_DropsLargeBuffers(t *testing.T) {
	renderTestSite(t, 3, 0, func(site *Site) {
		site.Data["big"] = strings.Repeat("x", 3*largeBuffer) // read by every run
		site.GroupData[1] = append(site.GroupData[1], "big")
		site.CardData = append(site.CardData, "big")
	})
	if got := poolLargest(); got > largeBuffer {
		t.Errorf("Hugo's buffer pool holds a buffer of %d bytes after the render, want none over %d", got, largeBuffer)
	}

	// the race detector's pool drops a quarter of what is put back: with
	// twenty small buffers, one is still found
	for range 20 {
		small := new(bytes.Buffer)
		small.Grow(1024)
		bufferpool.PutBuffer(small)
	}
	dropLargeBuffers()
	if got := poolLargest(); got < 1024 {
		t.Errorf("the small buffers were dropped: the pool's largest is %d bytes", got)
	}
}
