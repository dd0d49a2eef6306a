// F8 focuses the page's notifications region (SPEC: toasts), even before
// the first toast: the toasts' region and Radix load with the first toast
// (lib/toast.tsx), so until then the page has a placeholder region
// (templates/baseof.html) that the shell focuses. Once the toasts' region
// is on the page (it removes the placeholder), Radix's own handler does.
export function initToastHotkey() {
  document.addEventListener("keydown", (e) => {
    if (e.key !== "F8" || e.defaultPrevented || document.querySelector("[data-toaster]")) return;
    const placeholder = document.querySelector<HTMLElement>("[data-toast-placeholder]");
    if (!placeholder) return;
    e.preventDefault();
    placeholder.focus();
  });
}
