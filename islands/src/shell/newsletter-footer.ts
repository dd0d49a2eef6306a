// The footer's newsletter form is plain HTML on every page (it works
// without JavaScript). When the reader first reaches for it, it becomes
// the NewsletterSignup island, so pages load React for it only then.
import type { dataNewsletterFooter } from "../lib/contract";

const footerAttr: typeof dataNewsletterFooter = "data-newsletter-footer";

export function initNewsletterFooter(doc: Document = document): void {
  const el = doc.querySelector<HTMLElement>(`[${footerAttr}]`);
  if (!el) return;
  const events = ["focusin", "pointerenter", "touchstart"] as const;
  const load = () => {
    for (const e of events) el.removeEventListener(e, load);
    void mountFooter(el);
  };
  for (const e of events) el.addEventListener(e, load, { passive: true });
}

async function mountFooter(el: HTMLElement): Promise<void> {
  try {
    const [{ createElement }, { createRoot }, island] = await Promise.all([
      import("react"),
      import("react-dom/client"),
      import("../islands/NewsletterSignup"),
    ]);
    const props = JSON.parse(el.dataset.props ?? "{}") as Record<string, unknown>;
    const input = el.querySelector<HTMLInputElement>("input[type=email]");
    const hadFocus = el.contains(el.ownerDocument.activeElement);
    const initialEmail = input?.value ?? "";
    el.replaceChildren();
    createRoot(el).render(createElement(island.default, { ...props, initialEmail, autoFocus: hadFocus } as never));
    el.setAttribute("data-island-mounted", "");
  } catch (err) {
    console.error("newsletter footer:", err); // the plain form stays
  }
}
