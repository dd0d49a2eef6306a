package cmsconfig

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/cms"
)

// Validator is the CMS's check of every write: the catalog's loader over
// content (the content folder, as published) with the write's changes
// laid over it (catalog.CheckChanges). changes are named by repository
// paths: those under contentDir ("content/circulars/x.md") are loaded;
// those under mediaDir are media, which the backend checks for type and
// size, not the loader; any other path is refused (400). A change the
// loader refuses is a 422 whose message is its problems, one a line
// (file:line: field: message), every problem of the content as it would
// be, since a change can break another file.
func Validator(content fs.FS, contentDir, mediaDir string, now func() time.Time) cms.Validator {
	contentDir, mediaDir = path.Clean(contentDir), path.Clean(mediaDir)
	return cms.ValidatorFunc(func(_ context.Context, changes map[string][]byte) error {
		rel := map[string][]byte{}
		for p, data := range changes {
			switch {
			case !fs.ValidPath(p):
				return cms.Errorf(http.StatusBadRequest, "%q is not a path in the repository", p)
			case strings.HasPrefix(p, contentDir+"/"):
				rel[strings.TrimPrefix(p, contentDir+"/")] = data
			case strings.HasPrefix(p, mediaDir+"/"):
				// media: the backend's checks
			default:
				return cms.Errorf(http.StatusBadRequest, "%s is outside %s/ and %s/: the CMS writes only there", p, contentDir, mediaDir)
			}
		}
		if len(rel) == 0 {
			return nil
		}
		err := catalog.CheckChanges(content, path.Base(contentDir), rel, now)
		var ps catalog.Problems
		if errors.As(err, &ps) {
			lines := make([]string, len(ps))
			for i, p := range ps {
				lines[i] = p.String()
			}
			return cms.Errorf(http.StatusUnprocessableEntity, "%s", strings.Join(lines, "\n"))
		}
		return err
	})
}
