// The site's Devanagari font: Noto Sans Devanagari (OFL-1.1, from the
// @fontsource-variable package, a devDependency) subset at build time to
// what Hindi pages draw with it, written to src/fonts/generated/ where
// src/styles.css's @font-face refers to it; Vite then emits it into dist/
// as a hashed asset. No network: the font comes from node_modules.
//
// What is kept (scripts/font-range.json, the same list as the @font-face's
// unicode-range; src/fonts/font-range.test.ts holds them together):
//   U+0900-097F  the Devanagari block: letters, vowel signs, virama,
//                nukta, the danda and double danda (U+0964-0965), the
//                Devanagari digits (U+0966-096F), abbreviation sign
//   U+200C-200D  zero-width non-joiner and joiner (conjunct control)
//   U+25CC       the dotted circle shapers draw under a stray vowel sign
// Latin letters, digits and punctuation (, . ? : ( ) “ ” ₹ and the dash)
// stay with the system font: Hindi text uses them too, but a range that
// covered them would make English pages download this font.
// The weight axis is kept from 400 to 700 (the pages use normal, medium,
// semibold and bold); the rest of the axis is dropped.
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import subsetFont from "subset-font";

const here = dirname(fileURLToPath(import.meta.url));

export const FONT_RANGE = JSON.parse(await readFile(join(here, "font-range.json"), "utf8")).ranges.map(([from, to]) => [
  parseInt(from, 16),
  parseInt(to, 16),
]);

export function rangeText() {
  let text = "";
  for (const [from, to] of FONT_RANGE) {
    for (let c = from; c <= to; c++) text += String.fromCodePoint(c);
  }
  return text;
}

export const OUT = join(here, "..", "src", "fonts", "generated", "noto-sans-devanagari.woff2");

async function main() {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve("@fontsource-variable/noto-sans-devanagari/package.json"));
  const source = await readFile(join(pkg, "files", "noto-sans-devanagari-devanagari-wght-normal.woff2"));
  const subset = await subsetFont(source, rangeText(), {
    targetFormat: "woff2",
    variationAxes: { wght: { min: 400, max: 700 } },
  });
  // Written only when it changed, so Vite's and make's view of the file
  // (its time) moves only with the font.
  let old = null;
  try {
    old = await readFile(OUT);
  } catch {}
  if (old && Buffer.compare(old, subset) === 0) return;
  await mkdir(dirname(OUT), { recursive: true });
  await writeFile(OUT, subset);
  console.log(`font-subset: ${OUT} (${Math.round(subset.length / 1024)} KB, from ${Math.round(source.length / 1024)} KB)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main();
}
