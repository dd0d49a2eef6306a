import { act } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { ensureToaster, removeToaster } from "./toast";

afterEach(() => act(() => removeToaster()));

// The page's placeholder region (F8's until the first toast,
// shell/toast-hotkey.ts) goes when the toasts' region comes: one region.
it("replaces the page's placeholder notifications region with its own", async () => {
  const placeholder = document.createElement("div");
  placeholder.setAttribute("data-toast-placeholder", "");
  document.body.append(placeholder);
  await act(() => ensureToaster());
  expect(document.querySelector("[data-toast-placeholder]")).toBeNull();
  expect(document.querySelectorAll("[data-toaster]")).toHaveLength(1);
});
