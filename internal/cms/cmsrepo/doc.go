// Package cmsrepo answers the editors' web UI (internal/cms's contract,
// Decap's proxy protocol) over a repository of the content. Two modes,
// as decap-server has: Git (the server's own clone: drafts on branches
// cms/<collection>/<slug>, an editor saves and a reviewer publishes,
// commits authored by the person, a publish pushed to the remote) and
// Files (an editor's own working tree on their machine: writes go to the
// files, the editor commits them with git as usual). Git is go-git at
// object level: no git binary, no checkout.
package cmsrepo
