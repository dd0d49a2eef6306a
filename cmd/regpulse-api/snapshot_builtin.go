//go:build searchsnapshot

package main

import _ "embed"

// builtInSnapshot is the search index's snapshot a deploy's build wrote
// (make functions builds with the searchsnapshot tag when it exists):
// part of the binary's read-only data, which the system maps at exec, so
// the index is read in place from it as from a mapped file.
//
//go:embed search-index.snapshot
var builtInSnapshot string
