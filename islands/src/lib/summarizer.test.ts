import { describe, expect, it } from "vitest";
import { extracted, readsLocally, sizeKB, tooLarge } from "./summarizer";

describe("summarizer rules", () => {
  it("shows sizes in KB with one decimal", () => {
    expect([0, 1023, 1536, 10 * 1024 * 1024].map(sizeKB)).toEqual(["0.0 KB", "1.0 KB", "1.5 KB", "10240.0 KB"]);
  });
  it("reads only .txt locally", () => {
    expect(["a.TXT", "a.pdf", "a.docx", "a.doc"].map(readsLocally)).toEqual([true, false, false, false]);
  });
  it("names the limit in MB", () => {
    expect(tooLarge(10 * 1024 * 1024)).toBe("The file is larger than 10 MB. Please choose a smaller file.");
  });
  it("says how many pages OCR read", () => {
    const r = { text: "t", kind: "pdf", method: "ocr", encoding: "", pages: 1, ocrPages: 1, skippedPages: 0, isImageBased: false, message: "" } as const;
    expect(extracted(r)).toBe("Text extracted successfully. Text recognition (OCR) read 1 scanned page.");
    expect(extracted({ ...r, ocrPages: 0, message: "2 scanned page(s) could not be read." })).toBe("Text extracted successfully. 2 scanned page(s) could not be read.");
  });
});
