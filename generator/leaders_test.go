package generator

import (
	"regexp"
	"strings"
	"testing"
)

// The two company pages built from the fixture: Razorpay and an Indian
// lender without founders, and a Swedish company with profile links.
func TestBuild_CompanyPages(t *testing.T) {
	out, _ := buildSite(t, fixtureContent, templatesDir)
	read := func(p string) string { return readOut(t, out, p) }
	// card returns the article with the given id.
	card := func(page, id string) string {
		t.Helper()
		m := regexp.MustCompile(`(?s)<article id="` + id + `".*?</article>`).FindString(page)
		if m == "" {
			t.Fatalf("no card %s", id)
		}
		return m
	}

	t.Run("FintechLeaders", func(t *testing.T) {
		page := read("fintech-leaders/index.html")
		indian, global := strings.Index(page, `data-list="leaders-indian"`), strings.Index(page, `data-list="leaders-global"`)
		if indian < 0 || global < indian {
			t.Fatal("want the Indian list, then the Global list")
		}
		// Indian: by company name without case (no groups in the fixture).
		if r, l := strings.Index(page, `id="leader-razorpay"`), strings.Index(page, `id="leader-example-lender"`); !(indian < l && l < r && r < global) {
			t.Errorf("Indian order: lender at %d, Razorpay at %d", l, r)
		}
		rz := card(page, "leader-razorpay")
		for _, want := range []string{
			`<h3 class="text-lg font-semibold leading-snug">Harshil Mathur</h3>`, ">Co-Founder &amp; CEO</p>", ">Razorpay</p>",
			">Payment Processing</span>", `>R</span>`,
			// no LinkedIn or X in content: the '#' fallback, disabled
			`<a href="#" aria-disabled="true" tabindex="-1"`, `Profile<span class="sr-only">: no verified profile link for Harshil Mathur</span>`,
		} {
			if !strings.Contains(rz, want) {
				t.Errorf("Razorpay card lacks %s:\n%s", want, rz)
			}
		}
		el := card(page, "leader-example-lender")
		if !strings.Contains(el, `<h3 class="text-lg font-semibold leading-snug">example lender</h3>`) || !strings.Contains(el, "Founders not verified") ||
			strings.Contains(el, "Founder &amp;") || !strings.Contains(el, `>EL</span>`) {
			t.Errorf("a company without founders shows the company, no person, no title:\n%s", el)
		}
		ew := card(page, "leader-example-wallet")
		for _, want := range []string{">Ada Example</h3>", ">Co-Founder &amp; CEO</p>", ">Example Wallet (Demo)</p>", `>EW</span>`,
			`href="https://example.org/linkedin/example-wallet" target="_blank" rel="noopener noreferrer"`, `LinkedIn<span class="sr-only">: Ada Example</span>`,
			`href="https://example.org/x/example-wallet"`} {
			if !strings.Contains(ew, want) {
				t.Errorf("Example Wallet card lacks %s:\n%s", want, ew)
			}
		}
		if strings.Contains(ew, `href="#"`) {
			t.Error("a card with profile links also shows the '#' fallback")
		}
		for _, want := range []string{`data-island="LeadersFilter"`, `<div data-pager="leaders-indian"></div>`, `<div data-pager="leaders-global"></div>`,
			`<span data-count="leaders-indian">2</span>`, `<span data-count="leaders-global">1</span>`} {
			if !strings.Contains(page, want) {
				t.Errorf("page lacks %s", want)
			}
		}
	})

	t.Run("GlobalFintech", func(t *testing.T) {
		page := read("global-fintech/index.html")
		rz := card(page, "founder-razorpay")
		for _, want := range []string{">Razorpay</h3>", "Founded: 2014</p>", "Harshil Mathur, Shashank Kumar</dd>", ">Payment Processing</span>"} {
			if !strings.Contains(rz, want) {
				t.Errorf("Razorpay card lacks %s:\n%s", want, rz)
			}
		}
		if strings.Contains(rz, "<a ") {
			t.Errorf("a company without LinkedIn or X shows a link:\n%s", rz)
		}
		el := card(page, "founder-example-lender")
		if !strings.Contains(el, "Founded: Not verified</p>") || !strings.Contains(el, ">Not verified</dd>") {
			t.Errorf("missing facts should read Not verified:\n%s", el)
		}
		ew := card(page, "founder-example-wallet")
		if !strings.Contains(ew, `<span aria-hidden="true">·</span> Sweden</p>`) {
			t.Errorf("a Global card shows its country:\n%s", ew)
		}
		if !strings.Contains(ew, `href="https://example.org/linkedin/example-wallet"`) || !strings.Contains(ew, `href="https://example.org/x/example-wallet"`) {
			t.Errorf("LinkedIn and X links missing:\n%s", ew)
		}
		// Statistics: 2 Indian, 1 Global, 3 categories, 1 with LinkedIn.
		stats := regexp.MustCompile(`(?s)<dt[^>]*>([^<]+)</dt>\s*<dd[^>]*>(\d+)</dd>`).FindAllStringSubmatch(page, -1)
		got := map[string]string{}
		for _, m := range stats {
			got[m[1]] = m[2]
		}
		for k, v := range map[string]string{"Indian founders": "2", "Global founders": "1", "Categories": "3", "With LinkedIn profile": "1"} {
			if got[k] != v {
				t.Errorf("statistic %q = %q, want %s (all: %v)", k, got[k], v, got)
			}
		}
		if !strings.Contains(page, `data-empty="founders"`) || !strings.Contains(page, "No founders found") {
			t.Error("no 'No founders found' empty state")
		}
	})
}
