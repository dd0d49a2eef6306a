//go:build searchsnapshot

package main

import _ "embed"

// builtInSnapshot is the search index's snapshot a deploy's build wrote
// (make functions builds with the searchsnapshot tag when it exists). A
// []byte, so it lies in the binary's writable data, which the system maps
// privately from the file at exec: the index reads it in place, appends
// into the room it leaves (copying a page) and gives back the pages its
// check passed (index.OpenMappedSnapshot), as with a mapped file.
//
//go:embed search-index.snapshot
var builtInSnapshot []byte
