package generator

import (
	"regpulse/generator/render"
	"regpulse/internal/catalog"
)

// decodedCacheName names the cache of what the last build's load made of
// each circular's file (catalog.WithDecoded) among the caches beside an
// output: public/ has .public.decoded.gob. At 100,000 circulars a build
// after a one-file edit takes the other files from it rather than read
// and parse their YAML: that was most of its load.
const decodedCacheName = "decoded"

// readDecodedCache reads the decoded cache of outDir's last build: nil
// when there is none, it cannot be read, or another program wrote it;
// files is where it was read, for the next write.
func readDecodedCache(outDir string) (last catalog.Decoded, files *render.BesideMap[string, *catalog.DecodedFile]) {
	return render.ReadBesideMap[string, *catalog.DecodedFile](outDir, decodedCacheName+".gob")
}

// decodedCache is the decoded cache as read (readDecodedCache).
type decodedCache struct {
	last  catalog.Decoded
	files *render.BesideMap[string, *catalog.DecodedFile]
}

// decodedChanges are next's changes from last, the decoded cache read
// (files): what writeDecodedCache writes, made before last is let go.
func decodedChanges(files *render.BesideMap[string, *catalog.DecodedFile], last, next catalog.Decoded) render.MapChanges[string] {
	// an entry depends on its file's bytes and label alone (WithDecoded)
	return files.Changes(last, next, func(a, b *catalog.DecodedFile) bool { return a.Sum == b.Sum && a.Label == b.Label })
}

// writeDecodedCache writes d, a build's, into dir (the workspace's
// staging folder: commitCaches moves it beside the output): what changed
// since the cache read (files, changes). None when the load kept nothing
// (a catalog loaded with its texts), so that the last one stays.
func writeDecodedCache(dir string, d catalog.Decoded, files *render.BesideMap[string, *catalog.DecodedFile], changes render.MapChanges[string]) error {
	if len(d) == 0 || files == nil {
		return nil
	}
	return files.Write(dir, d, changes)
}
