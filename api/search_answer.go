package api

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"net/http"
	"slices"
	"sync"

	"regpulse/internal/catalog"
	"regpulse/internal/readcache"
	"regpulse/internal/search"
	"regpulse/internal/search/memo"
)

// A search's answer is mostly its circulars (about 90 KB of JSON for
// five, their whole text), and making their part again for every answer
// (the preview's Markdown parse, the JSON, its compression) was most of
// an uncached search's CPU. So each circular's part is kept, JSON and
// deflated on its own, by the stamp the store gave the circular as read
// (search.Response.Stamps), and an answer is put together from the parts:
// the JSON byte for byte as encoding/json writes the whole answer, and a
// gzip stream of the parts' deflated blocks (each ends flushed, on a
// byte, so they follow one another) with the rest deflated around them.

// searchPartBytes bounds the circulars' parts kept.
const searchPartBytes = 32 << 20

// searchParts are the circulars' parts by stamp: stamps are unique across
// the process's stores, so one map serves every handler.
var searchParts = memo.New[uint64, searchPart](searchPartBytes)

// searchPart is one circular of an answer.
type searchPart struct {
	json     []byte // as the answer's circulars hold it
	deflated []byte // json deflated alone, flushed, not final
	// replacements are those json names: they are other circulars', so
	// the part is used again only while they are the same.
	replacements []catalog.CircularRef
}

// circularParts are the parts of res's circulars, with their previews and
// replacements: kept ones, or made (and kept, when the store stamped the
// circular). res.Circulars are left without their previews.
func (h *Handler) circularParts(ctx context.Context, res search.Response) ([]searchPart, error) {
	cs, err := h.withReplacements(ctx, res.Circulars)
	if err != nil {
		return nil, err
	}
	parts := make([]searchPart, len(cs))
	for i := range cs {
		var stamp uint64
		if i < len(res.Stamps) {
			stamp = res.Stamps[i]
		}
		if p, ok := searchParts.Get(stamp); ok && stamp != 0 && slices.Equal(p.replacements, cs[i].Replacements) {
			parts[i] = p
			continue
		}
		catalog.WithPreviews(cs[i : i+1])
		b, err := json.Marshal(cs[i])
		if err != nil {
			return nil, err
		}
		p := searchPart{json: b, deflated: deflateFlushed(nil, b), replacements: cs[i].Replacements}
		if stamp != 0 {
			searchParts.Put(stamp, p, 256+len(p.json)+len(p.deflated))
		}
		parts[i] = p
	}
	return parts, nil
}

// circularsOpen is how encoding/json opens a search.Response.
const circularsOpen = `{"circulars":[`

// writeSearch answers with res, its circulars being parts, as writeOK
// would (the same bytes and ETag), gzipped from the parts when the client
// accepts gzip and the read cache is not recording the answer.
func (h *Handler) writeSearch(w http.ResponseWriter, r *http.Request, res search.Response, parts []searchPart) {
	res.Circulars = []catalog.Circular{}
	rest, err := json.Marshal(res)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if !bytes.HasPrefix(rest, []byte(circularsOpen+"]")) {
		h.writeError(w, r, errors.New("search: the answer's JSON does not open with its circulars"))
		return
	}
	rest = append(rest[len(circularsOpen):], '\n')
	n := len(circularsOpen) + len(rest)
	for _, p := range parts {
		n += len(p.json) + 1
	}
	body := append(make([]byte, 0, n), circularsOpen...)
	for i, p := range parts {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, p.json...)
	}
	body = append(body, rest...)
	var gz []byte
	if readcache.AcceptsGzip(r.Header["Accept-Encoding"]) && !recording(r) {
		gz = gzipParts(body, parts, rest)
	}
	writeRevalidatedAs(w, r, "application/json; charset=utf-8", body, gz)
}

// gzipParts is body, which is circularsOpen, parts' JSON between commas
// and rest, as a gzip stream (RFC 1952) of the parts' deflated blocks and
// the rest's.
func gzipParts(body []byte, parts []searchPart, rest []byte) []byte {
	n := 64 + len(rest)
	for _, p := range parts {
		n += len(p.deflated) + 6
	}
	gz := append(make([]byte, 0, n), 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)
	gz = appendStored(gz, []byte(circularsOpen))
	for i, p := range parts {
		if i > 0 {
			gz = appendStored(gz, []byte{','})
		}
		gz = append(gz, p.deflated...)
	}
	gz = deflateFlushed(gz, rest)
	gz = append(gz, 1, 0, 0, 0xff, 0xff) // the last block: stored, empty
	gz = binary.LittleEndian.AppendUint32(gz, crc32.ChecksumIEEE(body))
	return binary.LittleEndian.AppendUint32(gz, uint32(len(body)))
}

// appendStored appends data as stored deflate blocks (RFC 1951 3.2.4),
// not final, to a stream ending on a byte.
func appendStored(dst, data []byte) []byte {
	for len(data) > 0 {
		n := min(len(data), 0xffff)
		dst = append(dst, 0, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
		dst = append(dst, data[:n]...)
		data = data[n:]
	}
	return dst
}

// flaters are deflate writers at the fastest level, as the API's
// compression (internal/web), for deflateFlushed.
var flaters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.BestSpeed) // the level is valid
	return zw
}}

// deflateFlushed appends data deflated on its own (no reference before
// it), flushed: it ends on a byte, with no final block, so other blocks
// may follow.
func deflateFlushed(dst, data []byte) []byte {
	buf := bytes.NewBuffer(dst)
	zw := flaters.Get().(*flate.Writer)
	defer flaters.Put(zw)
	zw.Reset(buf)
	zw.Write(data) // writes to a bytes.Buffer do not fail
	zw.Flush()
	return buf.Bytes()
}
