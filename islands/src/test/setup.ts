import { notifyManager } from "@tanstack/react-query";
// Every test file ends with its page's toast region unmounted and React's
// pending work flushed, so nothing React scheduled runs after the file's
// document is gone (which vitest reports as an unhandled error).
import { act } from "@testing-library/react";
import { afterAll, beforeAll } from "vitest";
import { removeToaster } from "../lib/toast";

// The toast region loads with a page's first toast (a dynamic import);
// compiling it on first use can outlast a test's wait on a busy machine,
// so each file has it compiled before its tests run. The lazy mount
// itself still runs as on a page.
beforeAll(async () => {
  await import("../lib/toaster");
});

afterAll(async () => {
  await act(async () => {
    removeToaster();
  });
  await new Promise((r) => setTimeout(r, 0));
});

// TanStack Query hands results to components in a setTimeout(0) batch;
// tests that fake timers (a polled job) would hold them there. In tests
// the batch runs as a microtask instead: the same order, no timer.
notifyManager.setScheduler(queueMicrotask);

// The API client (openapi-fetch) makes a Request of its relative URL
// ("/api/..."), which a browser resolves against the page; jsdom has no
// Request and Node's takes only absolute URLs, so here one is resolved
// against the test's page as a browser would.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === "string" ? new URL(input, document.baseURI) : input, init);
  }
};
