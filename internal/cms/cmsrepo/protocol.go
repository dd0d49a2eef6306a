package cmsrepo

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"path"
	"strings"

	"regpulse/internal/cms"
)

// The request parameters and answers of Decap's proxy protocol, as
// decap-server's middlewares/types.ts declares them and
// decap-cms-backend-proxy's implementation.ts sends and reads them.

type fileRef struct {
	Path  string `json:"path"`
	Label string `json:"label,omitempty"`
}

type dataFile struct {
	Slug    string `json:"slug"`
	Path    string `json:"path"`
	Raw     string `json:"raw"`
	NewPath string `json:"newPath,omitempty"`
}

type asset struct {
	Path     string `json:"path"`
	Content  string `json:"content"`
	Encoding string `json:"encoding"`
}

type params struct {
	Branch string `json:"branch"`

	// entriesByFolder
	Folder    string `json:"folder"`
	Extension string `json:"extension"`
	Depth     int    `json:"depth"`
	// entriesByFiles
	Files []fileRef `json:"files"`
	// getEntry, getMediaFile, deleteFile, unpublishedEntry{Data,Media}File
	Path string `json:"path"`
	// deleteFiles
	Paths []string `json:"paths"`
	// getMedia
	MediaFolder string `json:"mediaFolder"`
	// persistMedia
	Asset *asset `json:"asset"`
	// the workflow's actions
	ID             string `json:"id"`
	Collection     string `json:"collection"`
	Slug           string `json:"slug"`
	NewStatus      string `json:"newStatus"`
	CMSLabelPrefix string `json:"cmsLabelPrefix"`
	// persistEntry
	Entry     *dataFile  `json:"entry"`
	DataFiles []dataFile `json:"dataFiles"`
	Assets    []asset    `json:"assets"`
	Options   struct {
		CollectionName string `json:"collectionName"`
		CommitMessage  string `json:"commitMessage"`
		UseWorkflow    bool   `json:"useWorkflow"`
		Status         string `json:"status"`
		NewEntry       bool   `json:"newEntry"`
		Unpublished    bool   `json:"unpublished"`
	} `json:"options"`
}

func parseParams(req cms.Request) (*params, error) {
	var p params
	if len(req.Params) == 0 || string(req.Params) == "null" {
		return &p, nil
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		return nil, cms.Errorf(http.StatusBadRequest, "%s: params: %v", req.Action, err)
	}
	return &p, nil
}

// dataFiles is persistEntry's files: dataFiles, or the older single entry.
func (p *params) dataFiles() ([]dataFile, error) {
	files := p.DataFiles
	if len(files) == 0 && p.Entry != nil {
		files = []dataFile{*p.Entry}
	}
	if len(files) == 0 {
		return nil, cms.Errorf(http.StatusBadRequest, "persistEntry: no data files")
	}
	return files, nil
}

func (a asset) bytes() ([]byte, error) {
	if a.Encoding != "base64" {
		return nil, cms.Errorf(http.StatusBadRequest, "%s: encoding %q (want base64)", a.Path, a.Encoding)
	}
	b, err := base64.StdEncoding.DecodeString(a.Content)
	if err != nil {
		return nil, cms.Errorf(http.StatusBadRequest, "%s: not base64: %v", a.Path, err)
	}
	return b, nil
}

// entryFile is an entry as entriesByFolder, entriesByFiles and getEntry
// answer it: data null and id null for a file that does not exist.
type entryFile struct {
	Data *string   `json:"data"`
	File entryMeta `json:"file"`
}

type entryMeta struct {
	Path  string  `json:"path"`
	Label string  `json:"label,omitempty"`
	ID    *string `json:"id"`
}

// mediaFile is a media file as getMedia, getMediaFile, persistMedia and
// unpublishedEntryMediaFile answer it.
type mediaFile struct {
	ID       string `json:"id"`
	Content  string `json:"content"`
	Encoding string `json:"encoding"`
	Path     string `json:"path"`
	Name     string `json:"name"`
}

func newMediaFile(p, id string, data []byte) mediaFile {
	return mediaFile{ID: id, Content: base64.StdEncoding.EncodeToString(data), Encoding: "base64", Path: p, Name: path.Base(p)}
}

type message struct {
	Message string `json:"message"`
}

// unpublishedEntry is the workflow's answer for one draft.
type unpublishedEntry struct {
	Collection        string     `json:"collection"`
	Slug              string     `json:"slug"`
	Status            string     `json:"status"`
	Diffs             []diffFile `json:"diffs"`
	UpdatedAt         string     `json:"updatedAt"`
	PullRequestAuthor string     `json:"pullRequestAuthor,omitempty"`
}

type diffFile struct {
	ID      string `json:"id"`
	Path    string `json:"path"`
	NewFile bool   `json:"newFile"`
}

// Decap's editorial statuses, kept as labels "<prefix><status>" as its
// git backends do (default prefix "decap-cms/").
const (
	statusDraft          = "draft"
	statusPendingReview  = "pending_review"
	statusPendingPublish = "pending_publish"
	defaultLabelPrefix   = "decap-cms/"
)

func statusToLabel(status, prefix string) string {
	if prefix == "" {
		prefix = defaultLabelPrefix
	}
	return prefix + status
}

func labelToStatus(label, prefix string) string {
	if prefix == "" {
		prefix = defaultLabelPrefix
	}
	return strings.TrimPrefix(label, prefix)
}

// frontMatterTitle is the title in a content file's front matter (YAML
// "title: x" or TOML `title = "x"`), "" when there is none: enough to
// name the item in a commit message without parsing the whole file.
func frontMatterTitle(raw []byte) string {
	s := strings.ReplaceAll(string(raw), "\r\n", "\n")
	var fence, sep string
	switch {
	case strings.HasPrefix(s, "---\n"):
		fence, sep = "---", ":"
	case strings.HasPrefix(s, "+++\n"):
		fence, sep = "+++", "="
	default:
		return ""
	}
	for _, line := range strings.Split(s, "\n")[1:] {
		if line == fence {
			break
		}
		k, v, ok := strings.Cut(line, sep)
		if !ok || strings.TrimSpace(k) != "title" {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		return v
	}
	return ""
}
