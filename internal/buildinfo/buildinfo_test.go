package buildinfo

import (
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFromBuildInfo(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want Info
	}{
		{"Tagged", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}}},
			Info{Version: "v1.2.3", Revision: rev, Go: "go1.26.0"}},
		{"Revision", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-11-26T08:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			Info{Version: "0123456789ab", Revision: rev, Time: "2026-11-26T08:00:00Z", Go: "go1.26.0"}},
		{"Dirty", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}},
			Info{Version: "0123456789ab+dirty", Revision: rev, Go: "go1.26.0"}},
		{"NoStamp", debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}},
			Info{Version: "devel", Go: "go1.26.0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, fromBuildInfo(&tc.bi)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if Read().Version == "" || Read().Go == "" {
		t.Errorf("Read() = %+v, want a version and a Go version", Read())
	}
}
