package web

import "mime"

// Types the standard library does not know, for the feeds the site serves.
func init() {
	_ = mime.AddExtensionType(".atom", "application/atom+xml; charset=utf-8")
	_ = mime.AddExtensionType(".ics", "text/calendar; charset=utf-8")
}
