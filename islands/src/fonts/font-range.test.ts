// The Devanagari font's three lists agree: the code points the build keeps
// (scripts/font-range.json, read by scripts/font-subset.mjs), the
// @font-face's unicode-range in styles.css, and the characters the pages
// draw. English text must fall outside the range (or English pages would
// download the font); every Devanagari character of the catalogue's Hindi
// and of the templates must fall inside it (or Hindi pages would draw it
// with another font).
import { describe, expect, it } from "vitest";
import fontRange from "../../scripts/font-range.json";

const ranges: [number, number][] = fontRange.ranges.map(([from, to]) => [parseInt(from, 16), parseInt(to, 16)]);
const inRange = (c: number) => ranges.some(([from, to]) => c >= from && c <= to);

// styles.css as written (vitest hands CSS imports, ?raw too, over empty).
const fsModule = "node:fs";
const { readFileSync } = (await import(/* @vite-ignore */ fsModule)) as { readFileSync(path: string, encoding: "utf8"): string };
const css = readFileSync("src/styles.css", "utf8"); // vitest runs in islands/;

type Entry = { en: unknown; hi: unknown };
const catalogue = import.meta.glob<Record<string, Entry>>("../../../internal/i18n/strings/*.json", { eager: true, import: "default" });
const templates = import.meta.glob<string>("../../../templates/**/*.html", { eager: true, query: "?raw", import: "default" });

function texts(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (v && typeof v === "object") return Object.values(v).flatMap(texts);
  return [];
}

function fontFace(): string {
  const m = css.match(/@font-face\s*{[^}]*"RegPulse Devanagari"[^}]*}/);
  if (!m) throw new Error("styles.css: no @font-face for RegPulse Devanagari");
  return m[0];
}

describe("the Devanagari font", () => {
  it("declares the subset's code points as its unicode-range", () => {
    const range = fontFace().match(/unicode-range:\s*([^;]+);/)?.[1];
    const declared = range!.split(",").map((r) => {
      const [from, to] = r.trim().replace(/^U\+/i, "").split("-");
      return [parseInt(from, 16), parseInt(to ?? from, 16)];
    });
    expect(declared).toEqual(ranges);
  });

  it("never moves text when it arrives, and is the first font of the sans stack", () => {
    const face = fontFace();
    expect(face).toMatch(/font-display:\s*optional;/);
    expect(face).toMatch(/font-weight:\s*400 700;/);
    expect(css).toMatch(/--font-sans:\s*"RegPulse Devanagari",/);
  });

  it("is not asked for by English text", () => {
    for (const [file, entries] of Object.entries(catalogue)) {
      for (const [key, entry] of Object.entries(entries)) {
        for (const text of texts(entry.en)) {
          for (const ch of text) {
            if (inRange(ch.codePointAt(0)!)) throw new Error(`${file}: ${key}: English text has ${ch} (U+${ch.codePointAt(0)!.toString(16)})`);
          }
        }
      }
    }
    for (const ch of "RegPulse ₹1,00,000 — “RBI/2020-21/60”, KYC: 12.5% (UPI) ‘a’ …") expect(inRange(ch.codePointAt(0)!)).toBe(false);
  });

  it("has every Devanagari character the Hindi catalogue and the templates draw", () => {
    const devanagari = /[\u0900-\u097F\u1CD0-\u1CFF\uA8E0-\uA8FF\u200C\u200D]/u;
    const hindi = Object.values(catalogue).flatMap((entries) => Object.values(entries).flatMap((e) => texts(e.hi)));
    let seen = 0;
    for (const text of [...hindi, ...Object.values(templates)]) {
      for (const ch of text) {
        if (!devanagari.test(ch)) continue;
        seen++;
        expect(inRange(ch.codePointAt(0)!), `U+${ch.codePointAt(0)!.toString(16)} in ${text}`).toBe(true);
      }
    }
    expect(seen).toBeGreaterThan(0);
    for (const ch of "भारिबैं/2020-21/60 परिपत्र। अनुपालन॥ ०१२३४५६७८९ क़ॉ") if (devanagari.test(ch)) expect(inRange(ch.codePointAt(0)!)).toBe(true);
  });
});
