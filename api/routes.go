package api

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// The parameters each call takes, as its handler receives them: a field
// per parameter, tagged with the name of its declaration (paramDecls).
type (
	pageIn struct {
		Limit  int `param:"Limit100"`
		Offset int `param:"Offset"`
	}
	circularsIn struct {
		Limit  int `param:"Limit50"`
		Offset int `param:"Offset"`
		circularFilters
	}
	// circularFilters are GET /circulars' filters and order, which the
	// bulk downloads take too.
	circularFilters struct {
		Source       string               `param:"Source"`
		Category     string               `param:"CircularCategory"`
		Search       string               `param:"CircularSearch"`
		Sort         catalog.CircularSort `param:"Sort"`
		Impact       string               `param:"Filter"`
		Type         string               `param:"DocumentType"`
		Verification string               `param:"Verification"`
	}
	newsIn struct {
		Limit    int    `param:"Limit50"`
		Offset   int    `param:"Offset"`
		Category string `param:"NewsCategory"`
		Search   string `param:"NewsSearch"`
		Region   string `param:"Region"`
	}
	companiesIn struct {
		Limit    int    `param:"Limit100"`
		Offset   int    `param:"Offset"`
		Category string `param:"CompanyCategory"`
	}
	regulationsIn struct {
		Limit   int    `param:"Limit100"`
		Offset  int    `param:"Offset"`
		Country string `param:"Country"`
		Status  string `param:"Status"`
	}
	searchIn struct {
		Q        string `param:"SearchQuery"`
		Page     int    `param:"SearchPage"`
		Source   string `param:"Source"`
		Category string `param:"CircularCategory"`
	}
	feedIn struct {
		Q        string `param:"SearchQuery"`
		Source   string `param:"Source"`
		Category string `param:"CircularCategory"`
	}
	tokenIn struct {
		Token string `param:"UnsubscribeToken"`
	}
	circularIn struct {
		ID string `param:"CircularID"`
	}
	jobIn struct {
		ID string `param:"JobID"`
	}
	alertIn struct {
		ID string `param:"AlertID"`
	}
	alertTokenIn struct {
		Token string `param:"AlertToken"`
	}
	feedTokenIn struct {
		Token string `param:"FeedToken"`
	}
)

func (in pageIn) page() catalog.Page { return catalog.Page{Limit: in.Limit, Offset: in.Offset} }

func (f circularFilters) query(page catalog.Page) catalog.CircularQuery {
	return catalog.CircularQuery{Source: f.Source, Category: f.Category, Search: f.Search, Sort: f.Sort,
		Impact: f.Impact, Type: f.Type, Verification: f.Verification, Page: page}
}

// routes binds every declared operation to its handler, with what runs
// before it. The order is the router's only: the document sorts by path.
func routes() []*route {
	always := func(*Handler) bool { return true }
	return []*route{
		handle(opHealth, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.health(w, r) }),
		handle(opOpenAPI, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.openAPI(w, r) }),

		// The public reads, the same for everyone, go through the read cache.
		cachedBy(always, handle(opListCirculars, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularsIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			catalogListPage(h, w, r, page, in.query(page), func(ctx context.Context, q catalog.CircularQuery) ([]catalog.Circular, int, error) {
				cs, total, err := h.store.ListCirculars(ctx, q)
				if err != nil {
					return nil, 0, err
				}
				cs, err = h.cards(ctx, cs)
				return cs, total, err
			})
		})),
		cachedBy(always, handle(opGetCircular, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularIn) {
			if c, ok := h.circular(w, r, in.ID); ok {
				cs, err := h.cards(r.Context(), []catalog.Circular{c}) // as its entry in the lists
				if err != nil {
					h.writeError(w, r, err)
					return
				}
				h.writeOK(w, r, cs[0])
			}
		})),
		cachedBy(always, handle(opCircularObligations, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularIn) {
			h.circularObligations(w, r, in.ID)
		})),
		cachedBy(always, handle(opListObligations, func(h *Handler, w http.ResponseWriter, r *http.Request, in obligationsIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			listPage(h, w, r, page, in.query(page), h.store.ListObligations)
		})),
		handle(opExportObligationsCSV, func(h *Handler, w http.ResponseWriter, r *http.Request, in obligationFilters) {
			h.exportObligations(w, r, in.query(catalog.Page{}))
		}),
		// The bulk downloads stream the whole list: not kept in the cache.
		handle(opExportCircularsCSV, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularFilters) {
			h.export(w, r, in.query(catalog.Page{}), "csv", "text/csv; charset=utf-8; header=present", newCSVExport)
		}),
		handle(opExportCircularsJSON, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularFilters) {
			h.export(w, r, in.query(catalog.Page{}), "json", "application/json; charset=utf-8", newJSONExport)
		}),
		cachedBy(always, handle(opListNews, func(h *Handler, w http.ResponseWriter, r *http.Request, in newsIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			catalogListPage(h, w, r, page, catalog.NewsQuery{Category: in.Category, Search: in.Search, Region: in.Region, Page: page}, h.store.ListNews)
		})),
		cachedBy(always, handle(opListFintechCompanies, func(h *Handler, w http.ResponseWriter, r *http.Request, in companiesIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			catalogListPage(h, w, r, page, catalog.CompanyQuery{Category: in.Category, Page: page}, h.store.ListCompanies)
		})),
		cachedBy(always, handle(opListPIIRegulations, func(h *Handler, w http.ResponseWriter, r *http.Request, in regulationsIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			catalogListPage(h, w, r, page, catalog.RegulationQuery{Country: in.Country, Status: in.Status, Page: page}, h.store.ListRegulations)
		})),
		cachedBy(always, handle(opListPaymentNetworks, func(h *Handler, w http.ResponseWriter, r *http.Request, in pageIn) {
			catalogListPage(h, w, r, in.page(), in.page(), h.store.ListNetworks)
		})),
		cachedBy(always, handle(opListSibosEvents, func(h *Handler, w http.ResponseWriter, r *http.Request, in pageIn) {
			catalogListPage(h, w, r, in.page(), in.page(), h.store.ListSibosEvents)
		})),
		cachedBy(always, handle(opImpactTracking, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.impactTracking(w, r) })),
		cachedBy(always, handle(opDashboardStats, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.dashboardStats(w, r) })),

		// A search's answer is the same for the same query only when no
		// model writes it (a model's answer varies, and its failures fall
		// back).
		cachedBy(func(h *Handler) bool { return !h.ai.svc.HasModel() },
			handle(opSearch, func(h *Handler, w http.ResponseWriter, r *http.Request, in searchIn) {
				h.search(w, r, search.Query{Text: in.Q, Page: in.Page, Source: in.Source, Category: in.Category})
			})),
		cachedBy(always, handle(opSearchFeed, func(h *Handler, w http.ResponseWriter, r *http.Request, in feedIn) {
			h.searchFeed(w, r, search.Query{Text: in.Q, Source: in.Source, Category: in.Category, ByDate: true, Limit: feedEntries})
		})),

		// Accounts.
		limited(accountsLimit("signup", func(c AuthConfig) int { return c.SignupLimit }),
			handle(opSignup, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.signup(w, r) })),
		limited(accountsLimit("login", func(c AuthConfig) int { return c.LoginLimit }),
			handle(opLogin, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.login(w, r) })),
		signedIn(handle(opMe, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.me(w, r) })),
		signedIn(handle(opLogoutAll, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.logoutAll(w, r) })),
		signedIn(handle(opPreferences, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.getPreferences(w, r) })),
		signedIn(handle(opSavePreferences, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.putPreferences(w, r) })),
		signedIn(handle(opSaveProfile, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.putProfile(w, r) })),
		signedIn(handle(opListRegister, func(h *Handler, w http.ResponseWriter, r *http.Request, in registerIn) { h.listRegister(w, r, in) })),
		signedIn(handle(opExportRegisterCSV, func(h *Handler, w http.ResponseWriter, r *http.Request, in registerFilters) {
			h.exportRegister(w, r, in)
		})),
		signedIn(handle(opSetObligationStatus, func(h *Handler, w http.ResponseWriter, r *http.Request, in obligationIn) {
			h.putObligationStatus(w, r, in.ID)
		})),
		signedIn(handle(opObligationHistory, func(h *Handler, w http.ResponseWriter, r *http.Request, in obligationIn) {
			h.obligationHistory(w, r, in.ID)
		})),
		signedIn(handle(opComplianceScore, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.complianceScore(w, r) })),
		// Password changes count against the sign-in limit's number.
		limited(accountsLimit("password", func(c AuthConfig) int { return c.LoginLimit }),
			signedIn(handle(opChangePassword, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.putPassword(w, r) }))),

		// Newsletter.
		limited(func(h *Handler) func(http.Handler) http.Handler {
			return h.rateLimit("subscribe", h.nlCfg.SubscribeLimit, h.nlCfg.LimitWindow, "Too many attempts; try again later")
		}, handle(opSubscribe, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.subscribe(w, r) })),
		admin(handle(opListSubscribers, func(h *Handler, w http.ResponseWriter, r *http.Request, in pageIn) {
			listPage(h, w, r, in.page(), in.page(), h.store.ListSubscribers)
		})),
		handle(opUnsubscribePage, func(h *Handler, w http.ResponseWriter, r *http.Request, in tokenIn) {
			h.unsubscribePage(w, r, in.Token)
		}),
		handle(opUnsubscribe, func(h *Handler, w http.ResponseWriter, r *http.Request, in tokenIn) { h.unsubscribe(w, r, in.Token) }),

		// Alerts.
		signedIn(handle(opListAlerts, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.listAlerts(w, r) })),
		signedIn(handle(opCreateAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.createAlert(w, r) })),
		signedIn(handle(opUpdateAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertIn) { h.updateAlert(w, r, in.ID) })),
		signedIn(handle(opDeleteAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertIn) { h.deleteAlert(w, r, in.ID) })),
		signedIn(handle(opRenewAlertFeed, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertIn) { h.renewFeedToken(w, r, in.ID) })),
		handle(opAlertFeed, func(h *Handler, w http.ResponseWriter, r *http.Request, in feedTokenIn) { h.alertFeed(w, r, in.Token) }),
		limited(func(h *Handler) func(http.Handler) http.Handler {
			return h.rateLimit("alert-subscribe", h.alCfg.SubscribeLimit, h.alCfg.LimitWindow, "Too many attempts; try again later")
		}, handle(opSubscribeAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.subscribeAlert(w, r) })),
		handle(opConfirmAlertPage, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertTokenIn) {
			h.confirmAlertPage(w, r, in.Token)
		}),
		handle(opConfirmAlert, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertTokenIn) {
			h.confirmAlert(w, r, in.Token)
		}),
		handle(opAlertUnsubscribePage, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertTokenIn) {
			h.alertUnsubscribePage(w, r, in.Token)
		}),
		handle(opAlertUnsubscribe, func(h *Handler, w http.ResponseWriter, r *http.Request, in alertTokenIn) {
			h.alertUnsubscribe(w, r, in.Token)
		}),

		// Documents.
		limited(func(h *Handler) func(http.Handler) http.Handler {
			return h.rateLimit("upload", uploadLimit, time.Minute, fmt.Sprintf("too many uploads: at most %d a minute; try again later", uploadLimit))
		}, handle(opExtractDocumentText, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.extractText(w, r) })),
		handle(opGetExtractJob, func(h *Handler, w http.ResponseWriter, r *http.Request, in jobIn) { h.extractJob(w, r, in.ID) }),

		// AI, sharing one rate limit.
		limited(aiLimit, handle(opSummarizeCircular, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularIn) {
			h.summarizeCircular(w, r, in.ID)
		})),
		limited(aiLimit, handle(opAnalyzeImpact, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularIn) {
			h.analyzeImpact(w, r, in.ID)
		})),
		limited(aiLimit, handle(opSummarizeText, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.summarizeText(w, r) })),
	}
}

// cachedBy serves rt through the read cache when when says so.
func cachedBy(when func(*Handler) bool, rt *route) *route { rt.cached = when; return rt }

// signedIn lets only a signed-in user through; admin only an
// administrator.
func signedIn(rt *route) *route { rt.user = true; return rt }
func admin(rt *route) *route    { rt.admin = true; return rt }

// limited puts rt behind a rate limit.
func limited(limit func(*Handler) func(http.Handler) http.Handler, rt *route) *route {
	rt.limit = limit
	return rt
}

// accountsLimit is an accounts call's rate limit, of n(AuthConfig) tries
// per the configured window.
func accountsLimit(name string, n func(AuthConfig) int) func(*Handler) func(http.Handler) http.Handler {
	return func(h *Handler) func(http.Handler) http.Handler {
		return h.rateLimit(name, n(h.authCfg), h.authCfg.LimitWindow, "Too many attempts; try again later")
	}
}

// aiLimit is the AI calls' shared limit: one limiter, built once per
// Handler.
func aiLimit(h *Handler) func(http.Handler) http.Handler { return h.ai.limit }
