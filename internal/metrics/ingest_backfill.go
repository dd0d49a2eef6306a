package metrics

import "github.com/prometheus/client_golang/prometheus"

// IngestBackfillIncomplete counts backfills that read a listing's last
// page, or its maxPages, without reaching an item already known: items
// of that source may have been lost (issue 45). Kept apart from
// metrics.go's ingest metrics so the slices of that issue merge cleanly.
var IngestBackfillIncomplete = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "regpulse_ingest_backfill_incomplete_total",
	Help: "Backfills that stopped (last page or maxPages) before reaching a known item, by source.",
}, []string{"source"})

func init() { Registry.MustRegister(IngestBackfillIncomplete) }
