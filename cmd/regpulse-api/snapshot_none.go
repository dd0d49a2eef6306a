//go:build !searchsnapshot

package main

// builtInSnapshot is nil: built without a snapshot (the searchsnapshot
// tag), the function starts from a file (--search-snapshot, or
// app.SearchSnapshotFile beside the binary) or from the database.
var builtInSnapshot []byte
