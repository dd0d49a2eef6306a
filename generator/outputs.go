package generator

import (
	"regpulse/internal/catalog"
)

// writeOutputs adds what Hugo does not render: security headers for the
// static host and the server.
func writeOutputs(outDir string, cat *catalog.Catalog, opts Options) error {
	return writeHeaders(outDir)
}
