// The islands' build (npm run build): Vite (vite.config.ts) once for each
// language of the site, all into dist/, so that a page ships its own
// language's strings only. Each build keeps, of the catalogue's files it
// imports (internal/i18n/strings, every key with every language side by
// side: {"en": …, "hi": …}), the keys the islands name, each with its
// text in the build's language, and writes its manifest: English's
// dist/.vite/manifest.json, another language's manifest.{lang}.json,
// which the generator reads for that language's pages
// (generator/assets.go). A chunk the same in every language (React,
// TanStack Query, the CSS, the font) has the same hashed name in each
// and is one file.
// The languages are internal/i18n's (Languages); the generator fails on
// a language whose manifest is missing. English is built last: its
// manifest is the Makefile's target, so a build stopped half way is not
// taken for a whole one.
import { readdir, readFile, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const languages = ["hi", "en"];

// The keys the islands name (src/, not the tests), found as
// internal/i18n's TestUsage finds them: quoted ("area.key", which t("…")
// is too), or as the start of a key made at run time (`area.${x}`:
// every key under area.). The catalogue's other keys are the templates'
// and the Go code's only, and stay out of the bundles.
const keyPattern = String.raw`[a-z][a-zA-Z0-9]*(?:\.[a-zA-Z0-9]+)+`;
const quotedRe = new RegExp(String.raw`["'\`](${keyPattern})["'\`]`, "g");
const prefixRe = new RegExp(String.raw`["\`]([a-z][a-zA-Z0-9]*(?:\.[a-zA-Z0-9]+)*\.)\$\{`, "g");

async function islandKeys() {
  const quoted = new Set();
  const prefixes = new Set();
  for (const file of await readdir(join(root, "src"), { recursive: true })) {
    if (!/\.tsx?$/.test(file) || file.includes(".test.")) continue;
    const text = await readFile(join(root, "src", file), "utf8");
    for (const m of text.matchAll(quotedRe)) quoted.add(m[1]);
    for (const m of text.matchAll(prefixRe)) prefixes.add(m[1]);
  }
  return (key) => quoted.has(key) || [...prefixes].some((p) => key.startsWith(p));
}

// oneLanguage is the transform of the catalogue's files for the build of
// lang: each key an island names, in the shape translator reads
// (src/lib/i18n.ts: entry[lang], else entry.en), with lang's text, or
// English's where the catalogue has none in lang.
function oneLanguage(lang, named) {
  return {
    name: "regpulse:one-language",
    enforce: "pre", // before Vite's JSON plugin makes the file a module
    transform(code, id) {
      if (!/[\\/]internal[\\/]i18n[\\/]strings[\\/][^\\/]+\.json$/.test(id)) return null;
      const kept = {};
      for (const [key, entry] of Object.entries(JSON.parse(code))) {
        if (named(key)) kept[key] = lang in entry ? { [lang]: entry[lang] } : { en: entry.en };
      }
      return { code: JSON.stringify(kept), map: null };
    },
  };
}

const named = await islandKeys();
await rm(join(root, "dist"), { recursive: true, force: true });
for (const lang of languages) {
  await build({
    root,
    logLevel: lang === "en" ? "info" : "warn",
    plugins: [oneLanguage(lang, named)],
    build: { emptyOutDir: false, manifest: lang === "en" ? true : `.vite/manifest.${lang}.json` },
  });
}
