// Package buildinfo says which build of RegPulse is running, from what the
// Go toolchain stamps into the binary (module version, VCS revision and
// time, Go version): `regpulse version`, /api/health and the metrics all
// read it here, so they never disagree.
package buildinfo

import (
	"runtime/debug"
	"sync"
)

// Info is a build's identity.
type Info struct {
	// Version is the module's version when built from a tagged module
	// (go install regpulse@v1.2.3), else the VCS revision's first 12
	// characters with "+dirty" when the tree had changes, else "devel".
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"` // full VCS revision, when stamped
	Time     string `json:"time,omitempty"`     // the revision's commit time (RFC 3339), when stamped
	Go       string `json:"go"`                 // the Go toolchain that built it
}

// Read returns this binary's Info (read once).
var Read = sync.OnceValue(func() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "devel"}
	}
	return fromBuildInfo(bi)
})

func fromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Go: bi.GoVersion}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	switch v := bi.Main.Version; {
	case v != "" && v != "(devel)":
		in.Version = v
	case in.Revision != "":
		in.Version = in.Revision[:min(12, len(in.Revision))]
		if dirty {
			in.Version += "+dirty"
		}
	default:
		in.Version = "devel"
	}
	return in
}
