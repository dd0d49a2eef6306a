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
