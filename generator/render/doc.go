// Package render is the machinery of a big static build, apart from what
// the site is (package generator): it renders a site's pages with Hugo,
// as a library, in bounded runs, each a temporary site of its own in
// memory holding only the data and views its pages read (Renderer,
// runs.go); renders once the cards many pages show and the lists' items
// (cards.go) and the head and shell of the circulars' pages (frames.go),
// and sets them in where the pages name them; reads the
// pages' texts from one file on disk (Pack, Workspace); publishes into
// the output only what changed, with a manifest of hashes and page keys
// beside it, and commits only a whole build (Output); and keeps the
// build's memory and time in view (HeapLimit, Steps), with hashes of its
// inputs (Record, HashDir, ProgramHash) and work on every core
// (InBatches).
//
// The site gives it pages (Page: a content file, its group and the views
// it shows), the templates' data, the views as JSON (Views), and which
// keys of the data each group of pages reads; it says what a page's key
// hashes. The templates' contract with it is small: a view is read by
// key through hugo.Data.site.circularIndex and .circulars
// (ViewIndexData, ViewsData), a page of layout "cards" renders each
// card of .Params.circulars after a mark, then its item with
// .Params.itemCard where the card goes (cards.go), and under
// site.Params.framing a page with front matter framedBy renders framed,
// into the frame a page of that slug renders with the sentinels of
// FrameParams, and one with itemsSetIn a mark for each of its list's
// items (frames.go).
package render
