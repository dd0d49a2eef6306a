import { expect, test, type Page } from "@playwright/test";
import { axeViolations, screenshot } from "./helpers";

// The AI Document Summarizer on /summarizer, every state. Text files and
// a text PDF go through the real server (its extraction is tested in Go
// over every kind of document); the states that need a scan or a failure
// are answered by page.route, and so is /api/ai/summarize.

const hint = "Support for .txt, .pdf, .doc files (max 10MB)";
const placeholder = "Paste regulatory circular text here for AI summarization, or upload a document above...";

// textPDF is a one-page PDF whose text layer is line, written by hand.
function textPDF(line: string): Buffer {
  const objs = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    "", // the content stream, below
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const content = `BT /F1 12 Tf 72 770 Td (${line}) Tj ET`;
  objs[3] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const result = (over: Record<string, unknown>) => ({
  text: "",
  kind: "pdf",
  method: "pdftotext",
  encoding: "",
  pages: 1,
  ocrPages: 0,
  skippedPages: 0,
  isImageBased: false,
  message: "",
  ...over,
});

const island = (page: Page) => page.locator('[data-island="Summarizer"]');
const text = (page: Page) => page.getByLabel("Document Text Content");
const generate = (page: Page) => page.getByRole("button", { name: /Generate Summary|Processing\.\.\./ });
const status = (page: Page) => island(page).getByRole("status");
const upload = (page: Page, name: string, buffer: Buffer, mimeType = "application/octet-stream") =>
  page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });

async function axeLightAndDark(page: Page) {
  expect(await axeViolations(page)).toEqual([]);
  await page.locator('[data-theme-choice="dark"]').click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  expect(await axeViolations(page)).toEqual([]);
  await page.locator('[data-theme-choice="light"]').click();
}

async function open(page: Page) {
  await page.goto("/summarizer");
  await expect(island(page).getByRole("button", { name: "Upload Document" })).toBeVisible();
}

test.describe("/summarizer", () => {
  test("starts empty: hint, OCR note, placeholder, Generate Summary disabled; linked from the sidebar", async ({ page }, info) => {
    await open(page);
    await expect(page.locator("h1")).toHaveText("AI Document Summarizer");
    await expect(island(page).getByText(hint)).toBeVisible();
    await expect(island(page).getByText(/OCR is enabled for scanned PDFs/)).toBeVisible();
    await expect(text(page)).toHaveAttribute("placeholder", placeholder);
    await expect(page.locator('input[type="file"]')).toHaveAttribute("accept", ".txt,.pdf,.doc,.docx");
    await expect(generate(page)).toBeDisabled();
    await text(page).fill("   ");
    await expect(generate(page)).toBeDisabled();
    await expect(page.locator('a[href="/summarizer"]').first()).toBeAttached();
    await screenshot(page, info, "summarizer-empty");
    await axeLightAndDark(page);
  });

  test("reads a .txt locally, shows name and size, and Remove clears everything", async ({ page }) => {
    await open(page);
    let uploads = 0;
    page.on("request", (r) => r.url().includes("/api/extract-pdf-text") && uploads++);
    await upload(page, "circular.txt", Buffer.from("RBI circular on card tokenisation ₹"), "text/plain");
    await expect(text(page)).toHaveValue("RBI circular on card tokenisation ₹");
    await expect(island(page).getByText("circular.txt")).toBeVisible();
    await expect(island(page).getByText("(0.0 KB)")).toBeVisible();
    await island(page).getByRole("button", { name: "Remove circular.txt" }).click();
    await expect(text(page)).toHaveValue("");
    await expect(island(page).getByText("circular.txt")).toHaveCount(0);
    expect(uploads).toBe(0);
  });

  test("extracts a real PDF through the server and says so", async ({ page }, info) => {
    await open(page);
    await upload(page, "circular.pdf", textPDF("Payment aggregators must report fraud within six hours."), "application/pdf");
    await expect(text(page)).toHaveValue(/Payment aggregators must report fraud within six hours\./);
    await expect(status(page)).toHaveText("Text extracted successfully.");
    await screenshot(page, info, "summarizer-extracted");
    await axeLightAndDark(page);
  });

  test("refuses a file over 10 MB before uploading it", async ({ page }) => {
    await open(page);
    let uploads = 0;
    page.on("request", (r) => r.url().includes("/api/extract-pdf-text") && uploads++);
    await upload(page, "big.pdf", Buffer.alloc(10 * 1024 * 1024 + 1, 0x20), "application/pdf");
    await expect(status(page)).toHaveText(/larger than 10 MB/);
    expect(uploads).toBe(0);
  });

  test("shows Processing PDF with progress for a long scan, then its text", async ({ page }, info) => {
    const job = { id: "j1", status: "running", done: 0, total: 40, result: result({}), error: "" };
    let polls = 0;
    await page.route("**/api/extract-pdf-text", (r) =>
      r.fulfill({ status: 202, contentType: "application/json", headers: { Location: "/api/extract-jobs/j1" }, body: JSON.stringify(job) }),
    );
    await page.route("**/api/extract-jobs/j1", (r) => {
      polls++;
      const body = polls < 3 ? { ...job, done: 12 * polls } : { ...job, status: "done", done: 40, result: result({ text: "Forty scanned pages", ocrPages: 40, method: "ocr" }) };
      return r.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(body) });
    });
    await open(page);
    await upload(page, "scan.pdf", textPDF("x"), "application/pdf");
    await expect(status(page)).toContainText("Processing PDF... This may take a moment for scanned documents.");
    await expect(status(page)).toContainText("Reading scanned pages: 12 of 40");
    await expect(status(page).locator("progress")).toBeVisible();
    await expect(generate(page)).toBeDisabled();
    await screenshot(page, info, "summarizer-progress");
    expect(await axeViolations(page)).toEqual([]);
    await expect(text(page)).toHaveValue("Forty scanned pages");
    await expect(status(page)).toHaveText("Text extracted successfully. Text recognition (OCR) read 40 scanned pages.");
  });

  test("shows the server's message for an image-based PDF, clears the text and shows the four steps", async ({ page }, info) => {
    await page.route("**/api/extract-pdf-text", (r) =>
      r.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(result({ isImageBased: true, message: "This PDF appears to be image-based (scanned)." })) }),
    );
    await open(page);
    await text(page).fill("earlier text");
    await upload(page, "scan.pdf", textPDF("x"), "application/pdf");
    await expect(status(page)).toHaveText("📄 This PDF appears to be image-based (scanned).");
    await expect(text(page)).toHaveValue("");
    await expect(island(page).locator('[data-testid="guidance"] li')).toHaveCount(4);
    await screenshot(page, info, "summarizer-image-based");
    await axeLightAndDark(page);
  });

  test("says PDF processing failed for a PDF the server refuses, and Failed to process for a Word file", async ({ page }) => {
    await open(page);
    await upload(page, "locked.pdf", Buffer.from("%PDF-1.7\nnot really a pdf"), "application/pdf");
    await expect(status(page)).toContainText("PDF processing failed. This may be an image-based PDF. Please copy and paste the text content below instead.");
    await upload(page, "notes.docx", Buffer.from("PK\x03\x04 not a document"));
    await expect(status(page)).toContainText("Failed to process the uploaded file.");
    expect(await axeViolations(page)).toEqual([]);
  });

  test("sends the trimmed text and shows Processing..., then the Summary: block", async ({ page }, info) => {
    let sent: unknown;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route("**/api/ai/summarize", async (r) => {
      sent = r.request().postDataJSON();
      await gate;
      await r.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ summary: "Aggregators report fraud within six hours.", provider: "local", model: "lexrank", generatedAt: "2026-11-24T00:00:00Z" }) });
    });
    await open(page);
    await text(page).fill("  Payment aggregators must report fraud within six hours.  ");
    await generate(page).click();
    await expect(generate(page)).toHaveText("Processing...");
    await expect(generate(page)).toBeDisabled();
    release();
    await expect(island(page).getByText("Summary:")).toBeVisible();
    await expect(island(page).getByText("Aggregators report fraud within six hours.")).toBeVisible();
    expect(sent).toEqual({ content: "Payment aggregators must report fraud within six hours." });
    await screenshot(page, info, "summarizer-summary");
    await axeLightAndDark(page);
  });

  test("names the AI provider generically when the summary fails", async ({ page }) => {
    await page.route("**/api/ai/summarize", (r) => r.fulfill({ status: 500, contentType: "application/json", body: '{"error":"internal server error"}' }));
    await open(page);
    await text(page).fill("Circular text");
    await generate(page).click();
    await expect(island(page).getByRole("alert")).toHaveText("Failed to generate summary. Please ensure the AI provider is properly configured.");
    await axeLightAndDark(page);
  });
});
