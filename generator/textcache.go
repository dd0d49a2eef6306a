package generator

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"

	"regpulse/generator/render"
	"regpulse/internal/catalog"
)

// textCache is what the last build's renderTexts made of each circular
// that the later steps read (its plain lead's start and hash, its
// obligations' views' hash, its marked text's hash), by textKey: what it was made from. At 100,000
// circulars rendering every text is half a minute; with the cache a
// rebuild renders only the circulars whose file or obligations changed,
// and the marked text of the pages it renders again (fillTexts). It is
// kept beside the output, as the record of its inputs is (cachePath),
// and holds for the program that wrote it only.
type textCache struct {
	mu   sync.Mutex
	last map[string]cachedText // the last build's
	next map[string]cachedText // this build's: what write keeps
	// files is where last was read: write writes what changed since
	// (a one-file edit at 100,000 circulars writes one entry, not 300 MB)
	files *render.BesideMap[string, cachedText]
}

// cachedText is a circularText without what the cache does not keep:
// the texts themselves (Marked, Full, and HTML but for the circulars
// whose HTML the build keeps), of the plain lead only its start, which
// previews read, and its hash, which the related ranking reads (at
// 100,000 circulars the leads were 250 MB of the cache's 300, read at
// every edit), and the draft's redline, which is made later from the
// other circulars (linkDrafts).
type cachedText struct {
	Start   string // catalog.PreviewStart of the plain lead
	LeadSum [sha256.Size]byte
	// ObligationsSum is the hash of its obligations' views, which the
	// pages rendered again have from fillTexts: at 100,000 circulars the
	// extracted ones' views were gigabytes of the cache
	ObligationsSum [sha256.Size]byte
	MarkedSum      [sha256.Size]byte
	// HTML is kept for the circulars whose HTML the build keeps
	// (textsOpts.keepHTML: the feeds'), empty for the others.
	HTML string
}

// textCacheName names the text cache among the caches beside an output
// (cachePath): public/ has .public.texts.gob.
const textCacheName = "texts"

// readTextCache reads the text cache of outDir's last build: empty when
// there is none, it cannot be read, or another program wrote it.
func readTextCache(outDir string) *textCache {
	last, files := render.ReadBesideMap[string, cachedText](outDir, textCacheName+".gob")
	if last == nil {
		last = map[string]cachedText{}
	}
	return &textCache{last: last, next: map[string]cachedText{}, files: files}
}

// textKey is the hash of what renderTexts makes a circular's cached
// results from: its file's bytes (sum: the record's hash of them, as the
// catalog loaded it), its written obligations as loaded (the loader's
// review of their citations included) and the stamp of the stored
// extracted ones it shows instead (extractedObligations.stamp).
func textKey(sum [sha256.Size]byte, c catalog.Circular, extracted string) (string, error) {
	obs, err := json.Marshal(c.Obligations)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "file %x\nobligations %d\n%s\nextracted %q\n", sum, len(obs), obs, extracted)
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

// put keeps t's results for key, for the next build, its HTML too when
// html (textsOpts.keepHTML).
func (tc *textCache) put(key string, t circularText, html bool) {
	ct := cachedText{Start: catalog.PreviewStart(t.Plain), LeadSum: t.LeadSum, ObligationsSum: t.ObligationsSum, MarkedSum: t.MarkedSum}
	if html {
		ct.HTML = t.HTML
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	tc.next[key] = ct
}

// write keeps this build's results beside outDir: what changed since
// the last build's cache was written whole (render.BesideMap).
func (tc *textCache) write(outDir string) error {
	if tc == nil {
		return nil
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	return tc.files.Write(outDir, tc.next, tc.files.Changes(tc.last, tc.next, sameText))
}

// sameText says two results for one key are the same: made from the
// same inputs (textKey), they differ only when one keeps its HTML and
// the other does not (put: html).
func sameText(a, b cachedText) bool { return a.HTML == b.HTML }

// cachePath is where the cache name of outDir's build is: beside it, as
// its record is (public/ has .public.texts.gob).
func cachePath(outDir, name string) string { return render.BesidePath(outDir, name+".gob") }

// cacheNames are the build's caches beside its output, which a build
// commits, prunes and links together.
var cacheNames = []string{textCacheName, deltaName(textCacheName), relatedCacheName, decodedCacheName, deltaName(decodedCacheName)}

// deltaName names the delta over the cache name among cacheNames (the
// file render.DeltaName names: texts.gob's is texts.delta.gob).
func deltaName(name string) string { return strings.TrimSuffix(render.DeltaName(name+".gob"), ".gob") }

// commitCaches moves the caches a build wrote beside its staging folder
// (the workspace's: the build writes them there as soon as they are made,
// to let them go) beside its output, once the output is in place. Beside
// an output still to come they would be another build's to prune
// (pruneCaches: a first build's output folder does not exist until it
// commits), and a failed build's caches would outlive it.
func commitCaches(staging, outDir string) error {
	for _, name := range cacheNames {
		if err := os.Rename(cachePath(staging, name), cachePath(outDir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// pruneCaches removes the caches in dir whose output folder is gone, as
// Output.Commit prunes their manifests and records.
func pruneCaches(dir string) {
	var suffixes []string
	for _, name := range cacheNames {
		suffixes = append(suffixes, "."+name+".gob")
	}
	render.PruneBeside(dir, suffixes...)
}

// linkCaches gives outDir the caches of the build in base, when a build
// into a new folder reuses base's output whole. Without them the next
// build makes every result again; none can be stale (each cache checks
// what its results were made from).
func linkCaches(base, outDir string) {
	if base == outDir {
		return
	}
	for _, name := range cacheNames {
		_ = os.Remove(cachePath(outDir, name))
		_ = os.Link(cachePath(base, name), cachePath(outDir, name))
	}
}
