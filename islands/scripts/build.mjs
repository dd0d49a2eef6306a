// The islands' build (npm run build): Vite once for each language of the
// site (vite.config.ts, ISLANDS_LANG), all into dist/, in one process.
// The languages are internal/i18n's (Languages); the generator reads
// each one's manifest (generator/assets.go) and fails on a missing one.
// English is built last: its manifest, dist/.vite/manifest.json, is the
// Makefile's target, so that a build that stopped half way is not taken
// for a whole one.
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const languages = ["hi", "en"];

await rm(join(root, "dist"), { recursive: true, force: true });
for (const lang of languages) {
  process.env.ISLANDS_LANG = lang;
  await build({ root, logLevel: lang === "en" ? "info" : "warn" });
}
