// The footer's newsletter island, an entry of its own that
// shell/newsletter-footer.ts adds when the reader first reaches for the
// footer's plain form. It keeps what was typed and where the focus was.
// It renders the form as the NewsletterSignup island does (importing that
// module here would take it out of the islands' own chunks).
import { createElement } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { dataIslandMounted, dataNewsletterFooter, dataProps, sel } from "../lib/contract";
import { NewsletterForm, type NewsletterFormProps } from "../lib/newsletter";
import { withProviders } from "../lib/providers";

const FooterSignup = withProviders<NewsletterFormProps>(NewsletterForm);

// mountFooter renders the island over the footer's form in doc, and
// returns its root (tests unmount it).
export function mountFooter(doc: Document = document): Root | undefined {
  const el = doc.querySelector<HTMLElement>(sel(dataNewsletterFooter));
  if (!el || el.hasAttribute(dataIslandMounted)) return undefined;
  try {
    const props = JSON.parse(el.getAttribute(dataProps) ?? "{}") as NewsletterFormProps;
    const initialEmail = el.querySelector<HTMLInputElement>("input[type=email]")?.value ?? "";
    const autoFocus = el.contains(doc.activeElement);
    el.replaceChildren();
    const root = createRoot(el);
    // in this task: keys typed meanwhile reach the island's focused field,
    // not a form already taken away (nor nothing, between the two)
    flushSync(() => root.render(createElement(FooterSignup, { ...props, initialEmail, autoFocus })));
    el.setAttribute(dataIslandMounted, "");
    return root;
  } catch (err) {
    console.error("newsletter footer:", err); // the plain form stays
    return undefined;
  }
}

mountFooter();
