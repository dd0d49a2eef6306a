// Package regpulse holds what the binaries embed from the repository's
// root: feeds.yaml, for the ingest function (cmd/regpulse-jobs), which
// has no files but its binary. The sources a function polls are those
// of the commit it was built from, as the site's pages are: an editor's
// change to feeds.yaml deploys like any other.
package regpulse

import _ "embed"

// FeedsYAML is feeds.yaml as built.
//
//go:embed feeds.yaml
var FeedsYAML []byte
