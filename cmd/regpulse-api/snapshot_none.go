//go:build !searchsnapshot

package main

// builtInSnapshot is empty: built without a snapshot (the searchsnapshot
// tag), the function starts from a file (--search-snapshot, or
// app.SearchSnapshotFile beside the binary) or from the database.
const builtInSnapshot = ""
