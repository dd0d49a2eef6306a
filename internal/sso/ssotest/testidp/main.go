// Command testidp serves ssotest's OpenID Connect provider on an
// address, for the browser tests (e2e/tests/sso.spec.ts): it signs in
// whoever the authorization request's login_hint names. Never for
// production: it asks no password.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"regpulse/internal/sso/ssotest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:28080", "loopback address to serve on")
	clientID := flag.String("client-id", "regpulse-e2e", "the one client's id")
	secret := flag.String("client-secret", "regpulse-e2e-secret", "the one client's secret")
	flag.Parse()
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		fmt.Fprintln(os.Stderr, "testidp: serve only on a loopback address (it signs anyone in)")
		os.Exit(2)
	}
	p := ssotest.New(*clientID, *secret)
	p.SetIssuer("http://" + *addr)
	p.SignInHinted()
	srv := &http.Server{Addr: *addr, Handler: p.Handler(), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.ListenAndServe())
}
