// The page's toast region (see toast.tsx), loaded with its first toast.
import * as Toast from "@radix-ui/react-toast";
import commonStrings from "../../../internal/i18n/strings/common.json";
import shellStrings from "../../../internal/i18n/strings/shell.json";
import { translator } from "./i18n";
import { dismiss, toastDuration, useToasts } from "./toast";

const tCommon = translator(commonStrings);
const tShell = translator(shellStrings);

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
          <Toast.Close aria-label={tCommon("common.close")} className="absolute right-2 top-2 rounded p-1 opacity-80 hover:opacity-100">
            <span aria-hidden="true">×</span>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport label={tShell("shell.notifications")} className="fixed inset-x-0 bottom-20 z-[100] flex max-h-screen flex-col gap-2 p-4 outline-none md:bottom-0 md:left-auto md:w-full md:max-w-[420px]" />
    </Toast.Provider>
  );
}

