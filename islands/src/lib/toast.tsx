// Toasts: one region per page, shared by every island, built on Radix
// Toast. At most one toast is visible; it closes after 5000 ms, on a swipe
// right past 50 px or its close button; F8 focuses the region. The region
// (and Radix, about 10 KB gzip) loads with the page's first toast, so
// pages where nothing is announced never fetch it. A toast asked for just
// before a full navigation (sign-in, sign-up) is kept in sessionStorage
// and shown on the next page.
import { useSyncExternalStore } from "react";
import { createRoot, type Root } from "react-dom/client";
export type ToastInput = { title: string; description?: string; variant?: "default" | "destructive" };
type Item = ToastInput & { id: number; open: boolean };

export const toastLimit = 1;
export const toastDuration = 5000;
export const toastRemoveDelay = 1_000_000;
const pendingKey = "regpulse-pending-toast";

let items: Item[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function dismiss(id: number) {
  items = items.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  setTimeout(() => {
    items = items.filter((t) => t.id !== id);
    emit();
  }, toastRemoveDelay);
}

// toast shows t (replacing the one shown: one at a time).
export function toast(t: ToastInput) {
  void ensureToaster();
  items = [{ ...t, id: nextId++, open: true }, ...items].slice(0, toastLimit);
  emit();
}

// toastAfterNavigation shows t on the next page this tab loads.
export function toastAfterNavigation(t: ToastInput) {
  try {
    sessionStorage.setItem(pendingKey, JSON.stringify(t));
  } catch {
    // storage disabled: no toast
  }
}

// showPendingToast shows the toast a previous page left, if any.
export function showPendingToast() {
  try {
    const raw = sessionStorage.getItem(pendingKey);
    if (!raw) return;
    sessionStorage.removeItem(pendingKey);
    toast(JSON.parse(raw) as ToastInput);
  } catch {
    // nothing kept
  }
}

// useToasts is the toasts to show, for the region (toaster.tsx); dismiss
// closes one.
export function useToasts() {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    () => items,
  );
}

let toasterRoot: Root | null = null;
let toasterLoad: Promise<void> | null = null;

// ensureToaster mounts the page's one toast region, loading it first.
export function ensureToaster(): Promise<void> {
  toasterLoad ??= import("./toaster").then(({ Toaster }) => {
    if (toasterLoad === null || document.querySelector("[data-toaster]")) return; // removed meanwhile, or mounted
    document.querySelector("[data-toast-placeholder]")?.remove(); // F8's region until now (shell/toast-hotkey.ts)
    const el = document.createElement("div");
    el.setAttribute("data-toaster", "");
    document.body.append(el);
    toasterRoot = createRoot(el);
    toasterRoot.render(<Toaster />);
  });
  return toasterLoad;
}

// removeToaster unmounts the toast region, so no toast's timer outlives
// the page (tests load many pages into one document).
export function removeToaster() {
  toasterLoad = null;
  toasterRoot?.unmount();
  toasterRoot = null;
  document.querySelector("[data-toaster]")?.remove();
}
