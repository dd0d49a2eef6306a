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
// when there is none, it cannot be read, or another program wrote it.
func readDecodedCache(outDir string) catalog.Decoded {
	last, ok, ours := render.ReadBesideMap[string, catalog.DecodedFile](outDir, decodedCacheName+".gob")
	if !ok || !ours {
		return nil
	}
	return last
}

// writeDecodedCache writes d, a build's, into dir (the workspace's
// staging folder: commitCaches moves it beside the output); none when
// the load kept nothing (a catalog loaded with its texts), so that the
// last one stays.
func writeDecodedCache(dir string, d catalog.Decoded) error {
	if len(d) == 0 {
		return nil
	}
	return render.WriteBesideMap(dir, decodedCacheName+".gob", d)
}
