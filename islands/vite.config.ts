import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

// `npm run build` builds the islands once for each language of the site
// (scripts/build.mjs), each build's manifest naming its language's files;
// the tests run with this config alone, with the whole catalogue.
// The Go generator reads the manifests (generator/assets.go) to put hashed
// asset URLs into the pages, so entry names here are part of that contract:
// shell (every page), loader (pages with islands), userMenu (loaded by the
// shell when a sign-in token is kept), styles (every page).
// The test files that replace a module with vi.mock, which only a file
// with a module graph of its own sees.
const isolatedTests = ["src/islands/NewsletterSignup.test.tsx"];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  base: "/assets/",
  build: {
    outDir: "dist",
    assetsDir: "",
    emptyOutDir: true,
    manifest: true,
    modulePreload: false,
    target: "es2022",
    rolldownOptions: {
      input: {
        shell: "src/shell/shell.ts",
        loader: "src/runtime/loader.ts",
        userMenu: "src/shell/user-menu.tsx",
        newsletterFooter: "src/shell/newsletter-footer-island.tsx",
        styles: "src/styles.css",
      },
      output: {
        codeSplitting: {
          // Fewer, larger shared chunks: each request costs about 1 KB of
          // headers and a round trip on a phone. "react" is what every
          // island page loads (React, the loader's contract, query-state,
          // the sign-in token's key); "query" what the islands that call
          // the API load (TanStack Query, the API client: openapi-fetch and
          // lib/api, auth, the toasts' queue and the AI's language;
          // not the toaster, loaded with the first toast) and the numbers'
          // and dates' formats (lib/numbers, which 20 of the 28 islands
          // that load "query" read: a chunk of its own was one request
          // more on the dashboard, for half a kilobyte).
          groups: [
            {
              name: "react",
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|preload-helper|src[\\/]lib[\\/](contract|query-state|token)\.ts$/,
            },
            {
              name: "query",
              test: /node_modules[\\/](@tanstack|openapi-fetch)[\\/]|src[\\/]lib[\\/](query|providers|toast|api|auth|ai-lang|numbers)\.tsx?$/,
            },
            // the catalogue's areas every list of cards reads (internal/i18n):
            // one request, not one per area
            { name: "cards", test: /internal[\\/]i18n[\\/]strings[\\/](card|list)\.json$/ },
          ],
        },
      },
    },
  },
  // The tests read the site's templates (../templates) to hold the cards
  // the islands draw to the generator's markup.
  server: { fs: { allow: [".."] } },
  test: {
    environment: "jsdom",
    setupFiles: ["src/test/setup.ts"],
    // The fixture-site tests parse every built page in jsdom: seconds each
    // on a busy machine, past vitest's 5 s default.
    testTimeout: 30_000,
    // A worker runs its test files one after another in one environment
    // (isolate: false): a new jsdom and module graph for each of 37 files
    // was three quarters of the run (70 s against 17 s). Each file resets
    // the page and its stubs (test/fixture.ts, afterEach), and the suite
    // passes in any order (--sequence.shuffle). A file that replaces a
    // module (vi.mock) needs a module graph of its own: "isolated".
    projects: [
      { extends: true, test: { name: "shared", include: ["src/**/*.test.{ts,tsx}"], exclude: isolatedTests, isolate: false } },
      { extends: true, test: { name: "isolated", include: isolatedTests } },
    ],
  },
});
