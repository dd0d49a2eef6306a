package generator

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"regpulse/generator/render"
	"regpulse/internal/catalog"
)

// textCache is what the last build's renderTexts made of each circular
// that the later steps read (its plain lead, its obligations' views, its
// marked text's hash), by textKey: what it was made from. At 100,000
// circulars rendering every text is half a minute; with the cache a
// rebuild renders only the circulars whose file or obligations changed,
// and the marked text of the pages it renders again (fillTexts). It is
// kept beside the output, as the record of its inputs is (textCachePath),
// and holds for the program that wrote it only.
type textCache struct {
	mu   sync.Mutex
	last map[string]cachedText // the last build's
	next map[string]cachedText // this build's: what write keeps
}

// cachedText is a circularText without what the cache does not keep:
// the texts themselves (HTML, Marked, Full) and the draft's redline,
// which is made later from the other circulars (linkDrafts).
type cachedText struct {
	Plain       string
	Obligations []obligationView
	MarkedSum   [sha256.Size]byte
}

// textCacheFile is a textCache as written.
type textCacheFile struct {
	Program string
	Texts   map[string]cachedText
}

// textCachePath is where the text cache of outDir's build is: beside
// it, as its record is (public/ has .public.texts.gob).
func textCachePath(outDir string) string {
	return filepath.Join(filepath.Dir(outDir), "."+filepath.Base(outDir)+".texts.gob")
}

// readTextCache reads the text cache of outDir's last build: empty when
// there is none, it cannot be read, or another program wrote it.
func readTextCache(outDir string) *textCache {
	tc := &textCache{last: map[string]cachedText{}, next: map[string]cachedText{}}
	data, err := os.ReadFile(textCachePath(outDir))
	if err != nil {
		return tc
	}
	var f textCacheFile
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&f) != nil || f.Texts == nil {
		return tc
	}
	if prog, err := render.ProgramHash(); err != nil || prog != f.Program {
		return tc // another program may render the same text otherwise
	}
	tc.last = f.Texts
	return tc
}

// textKey is the hash of what renderTexts makes a circular's cached
// results from: its file's bytes (sum: the record's hash of them, as the
// catalog loaded it) and its obligations as loaded (the stored extracted
// ones and the loader's review of their citations included).
func textKey(sum [sha256.Size]byte, c catalog.Circular) (string, error) {
	obs, err := json.Marshal(c.Obligations)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "file %x\nobligations %d\n%s\n", sum, len(obs), obs)
	return string(h.Sum(nil)), nil
}

// get is the last build's results for key, kept for the next build.
func (tc *textCache) get(key string) (cachedText, bool) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	t, ok := tc.last[key]
	if ok {
		tc.next[key] = t
	}
	return t, ok
}

// put keeps t's results for key, for the next build.
func (tc *textCache) put(key string, t circularText) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	tc.next[key] = cachedText{Plain: t.Plain, Obligations: t.Obligations, MarkedSum: t.MarkedSum}
}

// write keeps this build's results beside outDir.
func (tc *textCache) write(outDir string) error {
	if tc == nil {
		return nil
	}
	prog, err := render.ProgramHash()
	if err != nil {
		return err
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(textCacheFile{Program: prog, Texts: tc.next}); err != nil {
		return err
	}
	tmp := textCachePath(outDir) + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, textCachePath(outDir))
}

// linkTextCache gives outDir the text cache of the build in base, when
// a build into a new folder reuses base's output whole. Without it the
// next build renders every text again: its entries are keyed by what
// they were made from, so none can be stale.
func linkTextCache(base, outDir string) {
	if base == outDir {
		return
	}
	_ = os.Remove(textCachePath(outDir))
	_ = os.Link(textCachePath(base), textCachePath(outDir))
}
