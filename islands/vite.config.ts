import { defineConfig, type Plugin } from "vitest/config";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

// The islands are built once for each language of the site
// (scripts/build.mjs sets ISLANDS_LANG), so that a page ships its own
// language's strings only: every build writes into dist/, the chunks
// whose content is the same in every language under the same hashed
// name (React, TanStack Query, the CSS and the font are one), and its
// manifest: English's dist/.vite/manifest.json, another language's
// dist/.vite/manifest.{lang}.json. The Go generator reads them
// (generator/assets.go) to put hashed asset URLs into each language's
// pages, so entry names here are part of that contract:
// shell (every page), loader (pages with islands), userMenu (loaded by the
// shell when a sign-in token is kept), styles (every page).
// The tests (vitest) keep the whole catalogue: no ISLANDS_LANG.
declare const process: { env: Record<string, string | undefined> }; // Node's (no @types/node here)
const lang = process.env.ISLANDS_LANG;

// oneLanguage keeps, of the catalogue's files (internal/i18n/strings,
// each key with every language: {"en": …, "hi": …}), what a page in
// lang reads: each key's text in lang in the same shape (translator in
// src/lib/i18n.ts reads entry[lang]), or its English where the
// catalogue has no text in lang (translator's fallback).
function oneLanguage(lang: string): Plugin {
  return {
    name: "regpulse:one-language",
    enforce: "pre", // before Vite's JSON plugin makes the file a module
    transform(code, id) {
      if (!/[\\/]internal[\\/]i18n[\\/]strings[\\/][^\\/]+\.json$/.test(id)) return null;
      const area = JSON.parse(code) as Record<string, Record<string, unknown>>;
      const kept: typeof area = {};
      for (const [key, entry] of Object.entries(area)) {
        kept[key] = lang in entry ? { [lang]: entry[lang] } : { en: entry.en };
      }
      return { code: JSON.stringify(kept), map: null };
    },
  };
}

// The test files that replace a module with vi.mock, which only a file
// with a module graph of its own sees.
const isolatedTests = ["src/islands/NewsletterSignup.test.tsx"];

export default defineConfig(({ command }) => {
  if (command === "build" && !lang) throw new Error("islands: build with `npm run build` (scripts/build.mjs), once per language");
  return {
    plugins: [react(), tailwindcss(), lang ? oneLanguage(lang) : null],
    base: "/assets/",
    build: {
      outDir: "dist",
      assetsDir: "",
      // scripts/build.mjs empties dist/ once, before the first language
      emptyOutDir: false,
      manifest: lang === "en" ? true : `.vite/manifest.${lang}.json`,
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
            // not the toaster, loaded with the first toast).
            groups: [
              {
                name: "react",
                test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|preload-helper|src[\\/]lib[\\/](contract|query-state|token)\.ts$/,
              },
              {
                name: "query",
                test: /node_modules[\\/](@tanstack|openapi-fetch)[\\/]|src[\\/]lib[\\/](query|providers|toast|api|auth|ai-lang)\.tsx?$/,
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
  };
});
