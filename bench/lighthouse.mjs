// Lighthouse budgets of the built site (make bench-lighthouse; make bench
// runs it). It serves public/ with `regpulse serve` on a loopback port,
// drives Debian's chromium (the flags of e2e/playwright.config.ts) with
// Lighthouse's default mobile preset, and prints:
//   - the dashboard in each language (/ and /hi/), median of RUNS runs:
//     performance, accessibility, best practices, CLS and the JavaScript
//     it loads (transfer size, gzip), each against its budget;
//   - the CLS of every other route in each language (one run each)
//     against the same budget.
// It exits 1 when a budget is missed. Reports are never written to disk.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const root = new URL("..", import.meta.url).pathname;
const port = Number(process.env.BENCH_PORT ?? 18162);
const chromePort = Number(process.env.BENCH_CHROME_PORT ?? port + 1);
const runs = Number(process.env.RUNS ?? 3);
const base = `http://127.0.0.1:${port}`;

const budgets = { performance: 98, accessibility: 100, bestPractices: 95, cls: 0.05, jsKB: 100 };
const routes = ["/dashboard", "/search", "/news", "/impact-tracker", "/global-fintech", "/pii-regulations", "/payment-networks",
  "/payment-networks/visa", "/newsletter", "/sibos-events", "/fintech-events", "/learning-videos", "/fintech-leaders",
  "/payment-body/rbi", "/circulars", "/summarizer", "/login", "/signup"];
// the site's languages' roots (internal/i18n): English at /, Hindi under /hi
const roots = ["", "/hi"];

const chromeFlags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function waitFor(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

async function audit(chrome, url, categories) {
  const res = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories });
  const lhr = res.lhr;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const scripts = lhr.audits["resource-summary"]?.details?.items?.find((i) => i.resourceType === "script");
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    cls: lhr.audits["cumulative-layout-shift"].numericValue,
    jsKB: (scripts?.transferSize ?? 0) / 1024,
    fcp: lhr.audits["first-contentful-paint"].numericValue,
    lcp: lhr.audits["largest-contentful-paint"].numericValue,
    tbt: lhr.audits["total-blocking-time"].numericValue,
  };
}

// benchName is a Go benchmark's name for a figure of path (benchstat reads
// the lines): BenchmarkLighthouse/Dashboard/hi, BenchmarkLighthouse/CLS/circulars.
function benchName(what, path) {
  const name = path.replace(/^\/+|\/+$/g, "").replace(/[^A-Za-z0-9]+/g, "-") || "en";
  return `BenchmarkLighthouse/${what}/${name}`;
}

const data = mkdtempSync(join(tmpdir(), "regpulse-bench-"));
const server = spawn(join(root, "bin/regpulse"),
  ["serve", "--addr", `127.0.0.1:${port}`, "--public", join(root, "public"), "--content", join(root, "content"), "--data", data],
  { stdio: ["ignore", "ignore", "inherit"] });
let chrome;
let failed = false;
try {
  await waitFor(`${base}/api/health`, 30_000);
  chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags, port: chromePort });

  console.log("pkg: bench/lighthouse"); // the benchmark lines' table (benchstat)
  for (const home of roots.map((r) => r + "/")) {
    const dash = [];
    for (let i = 0; i < runs; i++) dash.push(await audit(chrome, base + home, ["performance", "accessibility", "best-practices"]));
    const m = Object.fromEntries(Object.keys(dash[0]).map((k) => [k, median(dash.map((r) => r[k]))]));
    const rows = [
      ["performance", m.performance, `>= ${budgets.performance}`, m.performance >= budgets.performance],
      ["accessibility", m.accessibility, `= ${budgets.accessibility}`, m.accessibility >= budgets.accessibility],
      ["best practices", m.bestPractices, `>= ${budgets.bestPractices}`, m.bestPractices >= budgets.bestPractices],
      ["CLS", m.cls.toFixed(4), `< ${budgets.cls}`, m.cls < budgets.cls],
      ["JavaScript (KB, transfer)", m.jsKB.toFixed(1), `<= ${budgets.jsKB}`, m.jsKB <= budgets.jsKB],
    ];
    console.log(`\nLighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version}, mobile preset, ${home} (median of ${runs} runs)`);
    for (const [name, value, budget, ok] of rows) {
      console.log(`  ${name.padEnd(26)} ${String(value).padStart(8)}   budget ${budget.padEnd(7)} ${ok ? "ok" : "MISSED"}`);
      failed ||= !ok;
    }
    console.log(`  FCP ${(m.fcp / 1000).toFixed(2)} s, LCP ${(m.lcp / 1000).toFixed(2)} s, TBT ${Math.round(m.tbt)} ms`);
    console.log(`  runs: ${dash.map((r) => `perf ${r.performance} a11y ${r.accessibility} bp ${r.bestPractices} cls ${r.cls.toFixed(4)} js ${r.jsKB.toFixed(1)}`).join("; ")}`);
    // each run as a benchmark line, for make bench's comparison with the
    // previous run (benchstat)
    for (const r of dash) {
      console.log(`${benchName("Dashboard", home)} 1 ${r.performance} performance ${r.accessibility} accessibility ` +
        `${r.bestPractices} best-practices ${r.cls.toFixed(4)} cls ${r.jsKB.toFixed(1)} js-KB`);
    }
  }

  console.log(`\nCLS of the other routes (one run each, budget < ${budgets.cls})`);
  for (const path of roots.flatMap((root) => routes.map((r) => root + r))) {
    const r = await audit(chrome, base + path, ["performance"]);
    const ok = r.cls < budgets.cls;
    failed ||= !ok;
    console.log(`  ${path.padEnd(26)} ${r.cls.toFixed(4).padStart(8)}   ${ok ? "ok" : "MISSED"}`);
    console.log(`${benchName("CLS", path)} 1 ${r.cls.toFixed(4)} cls`);
  }
} catch (err) {
  console.error(err);
  failed = true;
} finally {
  await chrome?.kill();
  server.kill("SIGTERM");
  rmSync(data, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
