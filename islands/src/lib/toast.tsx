// Toasts: one region per page (mounted once, whoever asks first), shared
// by every island, built on Radix Toast. At most one toast is visible; it
// closes after 5000 ms, on a swipe right past 50 px or its close button;
// F8 focuses the region. A toast asked for just before a full navigation
// (sign-in, sign-up) is kept in sessionStorage and shown on the next page.
import * as Toast from "@radix-ui/react-toast";
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

function dismiss(id: number) {
  items = items.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  setTimeout(() => {
    items = items.filter((t) => t.id !== id);
    emit();
  }, toastRemoveDelay);
}

// toast shows t (replacing the one shown: one at a time).
export function toast(t: ToastInput) {
  ensureToaster();
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

function useToasts() {
  return useSyncExternalStore(
    (l) => (listeners.add(l), () => listeners.delete(l)),
    () => items,
  );
}

export function Toaster() {
  const list = useToasts();
  return (
    <Toast.Provider duration={toastDuration} swipeDirection="right" swipeThreshold={50}>
      {list.map((t) => (
        <Toast.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismiss(t.id)}
          data-variant={t.variant ?? "default"}
          className={
            "toast pointer-events-auto relative flex w-full items-start gap-3 rounded-md border p-4 pr-8 shadow-lg " +
            (t.variant === "destructive"
              ? "border-red-700 bg-red-700 text-white"
              : "border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100")
          }
        >
          <div className="grid gap-1">
            <Toast.Title className="text-sm font-semibold">{t.title}</Toast.Title>
            {t.description && <Toast.Description className="text-sm opacity-90">{t.description}</Toast.Description>}
          </div>
          <Toast.Close aria-label="Close" className="absolute right-2 top-2 rounded p-1 opacity-80 hover:opacity-100">
            <span aria-hidden="true">×</span>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="fixed inset-x-0 bottom-20 z-[100] flex max-h-screen flex-col gap-2 p-4 outline-none md:bottom-0 md:left-auto md:w-full md:max-w-[420px]" />
    </Toast.Provider>
  );
}

let toasterRoot: Root | null = null;

// ensureToaster mounts the page's one toast region.
export function ensureToaster() {
  if (document.querySelector("[data-toaster]")) return;
  const el = document.createElement("div");
  el.setAttribute("data-toaster", "");
  document.body.append(el);
  toasterRoot = createRoot(el);
  toasterRoot.render(<Toaster />);
}

// removeToaster unmounts the toast region, so no toast's timer outlives
// the page (tests load many pages into one document).
export function removeToaster() {
  toasterRoot?.unmount();
  toasterRoot = null;
  document.querySelector("[data-toaster]")?.remove();
}
