import { fireEvent, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { inAct, loadPage, mountIsland, resetPage } from "../test/fixture";
import * as s from "../lib/summarizer";
import Summarizer from "./Summarizer";
import { bodyOf, pathOf } from "../test/fetch";

// The fixture's /summarizer, with the server's calls answered by a fake
// fetch: each test says what /api/extract-pdf-text, the job and
// /api/ai/summarize answer.
type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const json = (a: Answer) => new Response(JSON.stringify(a.body), { status: a.status, headers: { "Content-Type": "application/json", ...a.headers } });

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

describe("Summarizer on /summarizer", () => {
  let answers: Record<string, Answer[]>;
  let calls: { url: string; req: Request }[];
  beforeEach(() => {
    answers = {};
    calls = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (req: Request) => {
        const url = pathOf(req);
        calls.push({ url, req });
        const queue = answers[url];
        if (!queue?.length) return json({ status: 404, body: { error: "not found" } });
        return json(queue.length > 1 ? queue.shift()! : queue[0]);
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    resetPage();
  });

  // Queries look inside the island only: the page around it is large.
  let ui: ReturnType<typeof within>;
  const open = async () => {
    await loadPage("/summarizer");
    ui = within(await mountIsland("Summarizer", Summarizer));
  };
  const choose = (file: File) => inAct(() => fireEvent.change(document.querySelector<HTMLInputElement>('input[type="file"]')!, { target: { files: [file] } }));
  const textarea = () => ui.getByLabelText("Document Text Content") as HTMLTextAreaElement;
  const generateButton = () => ui.getByRole("button", { name: /Generate Summary|Processing\.\.\./ }) as HTMLButtonElement;
  const status = () => ui.getByRole("status").textContent;
  const settle = () => inAct(() => new Promise((r) => setTimeout(r, 0)));

  it("shows the upload controls, the hint and the OCR note, and a blank text disables Generate Summary", async () => {
    await open();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    expect(input.accept).toBe(".txt,.pdf,.doc,.docx");
    expect(input.hidden).toBe(true);
    expect(ui.getByText(s.hint)).toBeTruthy();
    expect(ui.getByText(s.ocrNote)).toBeTruthy();
    expect(textarea().placeholder).toBe(s.placeholder);
    expect(generateButton().disabled).toBe(true);
    await inAct(() => fireEvent.change(textarea(), { target: { value: "   \n " } }));
    expect(generateButton().disabled).toBe(true);
  });

  it("reads a .txt file locally, shows its name and size, and Remove clears file, text and input", async () => {
    await open();
    await choose(new File(["Circular text ₹"], "circular.txt", { type: "text/plain" }));
    await settle();
    expect(textarea().value).toBe("Circular text ₹");
    expect(ui.getByTestId("chosen-file").textContent).toContain("circular.txt");
    expect(ui.getByTestId("chosen-file").textContent).toContain("(0.0 KB)");
    expect(calls).toEqual([]);
    await inAct(() => fireEvent.click(ui.getByRole("button", { name: "Remove circular.txt" })));
    expect(textarea().value).toBe("");
    expect(ui.queryByTestId("chosen-file")).toBeNull();
    expect(document.querySelector<HTMLInputElement>('input[type="file"]')!.value).toBe("");
  });

  it("refuses a file over the limit before uploading it", async () => {
    await open();
    const big = new File(["x"], "big.pdf");
    Object.defineProperty(big, "size", { value: 10 * 1024 * 1024 + 1 });
    await choose(big);
    expect(status()).toContain("larger than 10 MB");
    expect(calls).toEqual([]);
  });

  it("sends a PDF to the server, shows Processing PDF, then fills the text with the success message", async () => {
    await open();
    answers["/api/extract-pdf-text"] = [{ status: 200, body: result({ text: "Extracted text", ocrPages: 2, method: "pdftotext+ocr" }) }];
    await choose(new File(["%PDF-1.7"], "scan.pdf"));
    await settle();
    expect(calls[0].url).toBe("/api/extract-pdf-text");
    expect(calls[0].req.headers.get("Content-Type")).toMatch(/^multipart\/form-data; boundary=/);
    expect((await calls[0].req.formData()).has("file")).toBe(true);
    expect(textarea().value).toBe("Extracted text");
    expect(status()).toBe("Text extracted successfully. Text recognition (OCR) read 2 scanned pages.");
  });

  it("polls a long scan's job, showing its progress", async () => {
    await open();
    const job = { id: "j1", status: "running", done: 0, total: 40, result: result({}), error: "" };
    answers["/api/extract-pdf-text"] = [{ status: 202, body: job, headers: { Location: "/api/extract-jobs/j1" } }];
    answers["/api/extract-jobs/j1"] = [
      { status: 200, body: { ...job, done: 12 } },
      { status: 200, body: { ...job, status: "done", done: 40, result: result({ text: "All 40 pages", ocrPages: 40 }) } },
    ];
    vi.useFakeTimers();
    try {
      await choose(new File(["%PDF-1.7"], "long.pdf"));
      expect(status()).toContain(s.processingPDF);
      expect(status()).toContain("Reading scanned pages: 0 of 40");
      await inAct(() => vi.advanceTimersByTimeAsync(1500));
      expect(status()).toContain("Reading scanned pages: 12 of 40");
      expect(ui.getByRole("progressbar", { name: "Scanned pages read" }).getAttribute("value")).toBe("12");
      await inAct(() => vi.advanceTimersByTimeAsync(1500));
    } finally {
      vi.useRealTimers();
    }
    expect(textarea().value).toBe("All 40 pages");
    expect(calls.map((c) => c.url)).toEqual(["/api/extract-pdf-text", "/api/extract-jobs/j1", "/api/extract-jobs/j1"]);
  });

  it("shows the server's message for an image-based PDF, clears the text and shows the four steps", async () => {
    await open();
    await inAct(() => fireEvent.change(textarea(), { target: { value: "old text" } }));
    answers["/api/extract-pdf-text"] = [{ status: 200, body: result({ isImageBased: true, message: "This PDF appears to be image-based." }) }];
    await choose(new File(["%PDF-1.7"], "scan.pdf"));
    await settle();
    expect(status()).toBe("📄 This PDF appears to be image-based.");
    expect(textarea().value).toBe("");
    expect(ui.getByTestId("guidance").querySelectorAll("li")).toHaveLength(4);
  });

  it("says PDF processing failed, with the server's reason, and Failed to process for other files", async () => {
    await open();
    answers["/api/extract-pdf-text"] = [{ status: 422, body: { error: "This PDF is protected by a password." } }];
    await choose(new File(["%PDF-1.7"], "locked.pdf"));
    await settle();
    expect(status()).toBe(s.pdfFailed + "This PDF is protected by a password.");
    await choose(new File(["PK"], "notes.docx"));
    await settle();
    expect(status()).toBe(s.fileFailed + "This PDF is protected by a password.");
    answers["/api/extract-pdf-text"] = [{ status: 500, body: { error: "internal server error" } }];
    await choose(new File(["PK"], "notes.doc"));
    await settle();
    expect(status()).toBe(s.fileFailed);
  });

  it("sends the trimmed text, shows Processing... while busy, then the Summary: block", async () => {
    await open();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    vi.stubGlobal(
      "fetch",
      vi.fn(async (req: Request) => {
        calls.push({ url: pathOf(req), req });
        await gate;
        return json({ status: 200, body: { summary: "A short summary.", provider: "local", model: "lexrank", generatedAt: "2026-11-24T00:00:00Z" } });
      }),
    );
    await inAct(() => fireEvent.change(textarea(), { target: { value: "  Circular text  \n" } }));
    await inAct(() => fireEvent.click(generateButton()));
    expect(generateButton().textContent).toBe("Processing...");
    expect(generateButton().disabled).toBe(true);
    await inAct(async () => release());
    await settle();
    expect(calls[0].url).toBe("/api/ai/summarize");
    expect(await bodyOf(calls[0].req)).toEqual({ content: "Circular text" });
    expect(ui.getByTestId("summary").textContent).toBe("Summary:A short summary.");
    expect(generateButton().textContent).toBe("Generate Summary");
  });

  it("shows the summary failure naming the AI provider generically", async () => {
    await open();
    answers["/api/ai/summarize"] = [{ status: 500, body: { error: "internal server error" } }];
    await inAct(() => fireEvent.change(textarea(), { target: { value: "Circular text" } }));
    await inAct(() => fireEvent.click(generateButton()));
    await settle();
    expect(ui.getByRole("alert").textContent).toBe("Failed to generate summary. Please ensure the AI provider is properly configured.");
  });
});

describe("Summarizer in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
    resetPage();
  });

  it("names its controls in the page's language", async () => {
    document.documentElement.lang = "hi";
    await loadPage("/summarizer");
    const ui = within(await mountIsland("Summarizer", Summarizer));
    expect(ui.getByRole("heading", { name: "AI दस्तावेज़ सारांशकर्ता" })).toBeTruthy();
    expect(ui.getByRole("button", { name: /दस्तावेज़ अपलोड करें/ })).toBeTruthy();
    expect(ui.getByLabelText("दस्तावेज़ का पाठ")).toBeTruthy();
    expect((ui.getByRole("button", { name: "सारांश बनाएँ" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
