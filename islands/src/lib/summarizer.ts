// The AI Document Summarizer's words and small rules, apart from the
// island so the dashboard's copy of the screen says the same.
import type { ExtractResult } from "./api";
import { formatCount } from "./numbers";

export const accept = ".txt,.pdf,.doc,.docx";
export const hint = "Support for .txt, .pdf, .doc files (max 10MB)";
export const ocrNote = "OCR is enabled for scanned PDFs: their pages are read as images.";
export const placeholder = "Paste regulatory circular text here for AI summarization, or upload a document above...";
export const processingPDF = "Processing PDF... This may take a moment for scanned documents.";
export const processingDoc = "Processing document...";
export const pdfFailed = "PDF processing failed. This may be an image-based PDF. Please copy and paste the text content below instead.";
export const fileFailed = "Failed to process the uploaded file.";
export const summaryFailed = "Failed to generate summary. Please ensure the AI provider is properly configured.";
export const guidanceSteps = [
  "Open the PDF in your PDF viewer.",
  "Select and copy the text you need.",
  "Paste it into the Document Text Content box below.",
  "Click Generate Summary.",
];

// sizeKB is a file's size as the screen shows it: KB with one decimal.
export function sizeKB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

// readsLocally: a .txt file is read in the browser; PDF and Word files
// go to the server (a Word file read as text is zip or OLE2 bytes).
export function readsLocally(name: string): boolean {
  return name.toLowerCase().endsWith(".txt");
}

export function isPDF(name: string): boolean {
  return name.toLowerCase().endsWith(".pdf");
}

// tooLarge says why a file over the server's limit is refused before upload.
export function tooLarge(maxBytes: number): string {
  return `The file is larger than ${Math.round(maxBytes / (1024 * 1024))} MB. Please choose a smaller file.`;
}

// extracted is the success message for a server extraction.
export function extracted(r: ExtractResult): string {
  const ocr = r.ocrPages > 0 ? ` Text recognition (OCR) read ${formatCount(r.ocrPages)} scanned page${r.ocrPages === 1 ? "" : "s"}.` : "";
  const note = r.message ? ` ${r.message}` : "";
  return `Text extracted successfully.${ocr}${note}`;
}

// progressText is a long scan's progress in words.
export function progressText(done: number, total: number): string {
  return `Reading scanned pages: ${formatCount(done)} of ${formatCount(total)}`;
}
