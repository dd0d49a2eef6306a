// The footer's newsletter form is plain HTML on every page (it works
// without JavaScript). When the reader first reaches for it, the shell
// adds the footer's entry (shell/newsletter-footer-island.tsx, whose URL
// the footer names in data-newsletter-src; a script element, not
// import(), so the shell shares no chunk with the islands), which turns it
// into the NewsletterSignup island: pages load React for it only then.
import type { dataNewsletterFooter, dataNewsletterSrc } from "../lib/contract";

const footerAttr: typeof dataNewsletterFooter = "data-newsletter-footer";
const srcAttr: typeof dataNewsletterSrc = "data-newsletter-src";

export function initNewsletterFooter(doc: Document = document): void {
  const el = doc.querySelector<HTMLElement>(`[${footerAttr}]`);
  const src = el?.getAttribute(srcAttr);
  if (!el || !src) return;
  const events = ["focusin", "pointerenter", "touchstart"] as const;
  const load = () => {
    for (const e of events) el.removeEventListener(e, load);
    const script = doc.createElement("script");
    script.type = "module";
    script.src = src;
    doc.head.append(script);
  };
  for (const e of events) el.addEventListener(e, load, { passive: true });
}
