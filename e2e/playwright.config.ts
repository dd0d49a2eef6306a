import { cpus } from "node:os";
import { defineConfig, devices } from "@playwright/test";

// Drives Debian's Chromium (never a downloaded browser) against
// `regpulse serve` on the built public/ of the repository: its headless
// shell (chromium-headless-shell, what Playwright runs headless by
// default), which costs a third of the CPU the full browser does per test
// (a new page is a new renderer either way). E2E_CHROMIUM names another
// (/usr/bin/chromium, to watch a test run headed).
const port = Number(process.env.E2E_PORT ?? 18080);
// The OpenID Connect provider single sign-on's spec signs in through
// (internal/sso/ssotest/testidp), on a port of its own.
const idpPort = port + 10000;
// The editors' web UI's spec (tests/cms.spec.ts) runs against a server of
// its own (cms-server.sh): a clone of the content with a bare repository
// as its remote, rebuilt when an entry is published.
const cmsPort = port + 3;
const chromium = {
  executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium-headless-shell",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests",
  outputDir: "test-results",
  fullyParallel: true,
  // Every worker drives its own browser against the one shared server;
  // most of a test's time is waiting on pages, so a worker more than
  // the cores keeps them busy. E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS ?? cpus().length + 1),
  retries: 0,
  reporter: [["list"]],
  // axe over a page of a hundred cards takes seconds on a busy 2-core
  // machine; the tests wait on conditions, never on time.
  timeout: 90_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromium,
    trace: "off",
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1366, height: 900 }, launchOptions: chromium } },
    { name: "mobile", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, launchOptions: chromium } },
  ],
  webServer: [
    {
      command: `../bin/regpulse serve --addr 127.0.0.1:${port} --public ../public --content ../content --data test-results/data --login-limit 1000 --signup-limit 1000 --log-level warn --site-url http://127.0.0.1:${port} --sso-allow-private --sso-trust-domains --webhooks-allow-loopback --webhooks-every 1s --webhooks-retry-scale 0.001`,
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `./cms-server.sh ${cmsPort}`,
      url: `http://127.0.0.1:${cmsPort}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // go run: compiled once, then from Go's build cache.
      command: `go run ./internal/sso/ssotest/testidp -addr 127.0.0.1:${idpPort}`,
      cwd: "..",
      url: `http://127.0.0.1:${idpPort}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 180_000,
    },
  ],
});
