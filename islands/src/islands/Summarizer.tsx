// The AI Document Summarizer: pasted text, or a document's text (a .txt
// read here; PDF, .docx and .doc through POST /api/extract-pdf-text,
// whose long scans are jobs polled for progress), then a summary from
// POST /api/ai/summarize. /summarizer places it; the dashboard reuses it.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { aiQuery } from "../lib/ai-lang";
import { api, ApiError, dataOf, multipart, type ExtractJob, type ExtractResult } from "../lib/api";
import strings from "../../../internal/i18n/strings/summarizer.json";
import { translator } from "../lib/i18n";
import { withQuery } from "../lib/providers";
import * as s from "../lib/summarizer";

type Props = {
  maxBytes: number; // the server's upload limit (extract.MaxUpload)
  pollMs?: number; // how often a long scan's job is asked for progress
};

type Status =
  | { kind: "idle" }
  | { kind: "processing"; message: string; done?: number; total?: number }
  | { kind: "success"; message: string }
  | { kind: "image"; message: string }
  | { kind: "error"; message: string; detail?: string };

// isJob tells a long scan's job (202) from a result (200).
const isJob = (d: ExtractResult | ExtractJob): d is ExtractJob => "id" in d;

const t = translator(strings);

function Summarizer({ maxBytes, pollMs = 1500 }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [text, setText] = useState("");
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  // job is a long scan being read in the background, polled until it ends.
  const [job, setJob] = useState<ExtractJob | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const ids = useId();
  useEffect(() => () => abort.current?.abort(), []);

  const polled = useQuery({
    queryKey: ["/extract-jobs/{id}", job?.id],
    queryFn: ({ signal }) => dataOf(api.GET("/extract-jobs/{id}", { params: { path: { id: job?.id ?? "" } }, signal })),
    enabled: job !== null,
    initialData: job ?? undefined,
    refetchInterval: (q) => (q.state.data?.status === "running" ? pollMs : false),
    // The scan goes on while the reader looks at another tab.
    refetchIntervalInBackground: true,
  });
  const [summary, setSummary] = useState("");
  const [summaryError, setSummaryError] = useState("");
  const [summarizing, setSummarizing] = useState(false);

  const processing = status.kind === "processing";
  const busy = processing || summarizing;

  const clear = () => {
    abort.current?.abort();
    setJob(null);
    setFile(null);
    setText("");
    setStatus({ kind: "idle" });
    if (input.current) input.current.value = "";
  };

  const pick = async (f: File | undefined) => {
    abort.current?.abort();
    setJob(null);
    if (!f) return;
    if (f.size > maxBytes) {
      setFile(null);
      if (input.current) input.current.value = "";
      setStatus({ kind: "error", message: s.tooLarge(maxBytes) });
      return;
    }
    setFile(f);
    setSummary("");
    if (s.readsLocally(f.name)) {
      try {
        setText(await f.text());
        setStatus({ kind: "success", message: t("summarizer.textLoaded") });
      } catch {
        setStatus({ kind: "error", message: s.fileFailed });
      }
      return;
    }
    const ctl = new AbortController();
    abort.current = ctl;
    setStatus({ kind: "processing", message: s.isPDF(f.name) ? s.processingPDF : s.processingDoc });
    try {
      const data = await dataOf(api.POST("/extract-pdf-text", { body: { file: f }, bodySerializer: multipart, signal: ctl.signal }));
      if (ctl.signal.aborted) return;
      if (isJob(data)) setJob(data);
      else show(data);
    } catch (err) {
      if (!ctl.signal.aborted) failed(f, err);
    }
  };

  // show shows an extraction's result.
  const show = (result: ExtractResult) => {
    if (result.isImageBased) {
      setText("");
      setStatus({ kind: "image", message: result.message });
    } else {
      setText(result.text);
      setStatus({ kind: "success", message: s.extracted(result) });
    }
  };

  // failed says the file could not be read, with the server's reason when
  // it explains a refusal (4xx).
  const failed = (f: File, err: unknown) => {
    const detail = err instanceof ApiError && err.status < 500 ? err.serverMessage : undefined;
    setStatus({ kind: "error", message: s.isPDF(f.name) ? s.pdfFailed : s.fileFailed, detail });
  };

  // A long scan's progress, then its result or its failure.
  useEffect(() => {
    const j = polled.data;
    if (!job || !j || !file) return;
    if (j.status === "running") {
      setStatus({ kind: "processing", message: s.processingPDF, done: j.done, total: j.total });
      return;
    }
    setJob(null);
    if (j.status === "done") show(j.result);
    else failed(file, new ApiError(`422: ${j.error}`, 422, j.error));
  }, [polled.data, job, file]);
  useEffect(() => {
    if (!polled.error || !job || !file) return;
    setJob(null);
    failed(file, polled.error);
  }, [polled.error, job, file]);

  const generate = async () => {
    const content = text.trim();
    if (!content) return;
    setSummarizing(true);
    setSummaryError("");
    setSummary("");
    try {
      setSummary((await dataOf(api.POST("/ai/summarize", { params: { query: aiQuery() }, body: { content } }))).summary);
    } catch {
      setSummaryError(s.summaryFailed);
    } finally {
      setSummarizing(false);
    }
  };

  const statusTone: Record<Status["kind"], string> = {
    idle: "",
    processing: "border-brand-100 bg-brand-50 text-brand-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100",
    success: "border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100",
    image: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100",
    error: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100",
  };
  const showGuidance = status.kind === "image" || (status.kind === "error" && file !== null && s.isPDF(file.name));

  return (
    <section aria-labelledby={`${ids}-title`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-700 dark:bg-slate-900">
      <h2 id={`${ids}-title`} className="text-xl font-semibold">
        {t("summarizer.title")}
      </h2>

      <div className="mt-4 flex flex-wrap items-center gap-3">
        <input
          ref={input}
          id={`${ids}-file`}
          type="file"
          accept={s.accept}
          hidden
          onChange={(e) => void pick(e.currentTarget.files?.[0])}
        />
        <button
          type="button"
          onClick={() => input.current?.click()}
          disabled={processing}
          className="inline-flex h-10 items-center gap-2 rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60"
        >
          <span aria-hidden="true">⬆</span> {t("summarizer.upload")}
        </button>
        <div className="text-sm text-slate-700 dark:text-slate-300">
          <p>{s.hint}</p>
          <p>{s.ocrNote}</p>
        </div>
      </div>

      {file && (
        <div className="mt-3 flex items-center justify-between gap-3 rounded-md border border-slate-200 px-3 py-2 text-sm dark:border-slate-700" data-testid="chosen-file">
          <span className="min-w-0 truncate">
            <span className="font-medium">{file.name}</span> <span className="text-slate-700 dark:text-slate-300">({s.sizeKB(file.size)})</span>
          </span>
          <button
            type="button"
            onClick={clear}
            aria-label={t("summarizer.removeFile", { Name: file.name })}
            className="inline-flex h-8 items-center rounded-md border border-slate-300 px-3 font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            {t("summarizer.remove")}
          </button>
        </div>
      )}

      <div role="status" aria-live="polite" className="mt-3 empty:hidden">
        {status.kind !== "idle" && (
          <div className={`rounded-md border px-3 py-2 text-sm ${statusTone[status.kind]}`} data-status={status.kind}>
            <p>
              {status.kind === "image" && <span aria-hidden="true">📄 </span>}
              {status.message}
            </p>
            {status.kind === "error" && status.detail && <p className="mt-1">{status.detail}</p>}
            {status.kind === "processing" && status.total !== undefined && status.total > 0 && (
              <div className="mt-2">
                <progress className="w-full" max={status.total} value={status.done ?? 0} aria-label={t("summarizer.pagesRead")} />
                <p className="mt-1">{s.progressText(status.done ?? 0, status.total)}</p>
              </div>
            )}
          </div>
        )}
      </div>

      {showGuidance && (
        <div className="mt-3 rounded-md border border-brand-100 bg-brand-50 p-3 text-sm dark:border-slate-600 dark:bg-slate-800" data-testid="guidance">
          <p className="font-medium">{t("summarizer.guidanceTitle")}</p>
          <ol className="mt-1 list-decimal pl-5">
            {s.guidanceSteps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </div>
      )}

      <label htmlFor={`${ids}-text`} className="mt-4 block text-sm font-medium">
        {t("summarizer.textLabel")}
      </label>
      <textarea
        id={`${ids}-text`}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        placeholder={s.placeholder}
        rows={10}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-900 placeholder:text-slate-600 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-400"
      />

      <button
        type="button"
        onClick={() => void generate()}
        disabled={busy || text.trim() === ""}
        className="mt-3 inline-flex h-10 items-center rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60"
      >
        {summarizing ? t("summarizer.processing") : t("summarizer.generate")}
      </button>

      {summaryError && (
        <p role="alert" className="mt-3 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
          {summaryError}
        </p>
      )}
      {summary && (
        <div className="mt-4 rounded-md border border-slate-200 bg-slate-50 p-4 dark:border-slate-700 dark:bg-slate-800" data-testid="summary">
          <h3 className="font-semibold">{t("summarizer.summary")}</h3>
          <p className="mt-2 whitespace-pre-line text-sm">{summary}</p>
        </div>
      )}
    </section>
  );
}

export default withQuery(Summarizer);
