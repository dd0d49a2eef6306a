import { notifyManager } from "@tanstack/react-query";
// Every test file ends with its page's toast region unmounted and React's
// pending work flushed, so nothing React scheduled runs after the file's
// document is gone (which vitest reports as an unhandled error).
import { act } from "@testing-library/react";
import { afterAll } from "vitest";
import { removeToaster } from "../lib/toast";

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
