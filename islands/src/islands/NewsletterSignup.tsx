// The newsletter signup island: the /newsletter page's form, the footer's
// (mounted by the shell on first use) and the dashboard's compact form.
// Props come from the page (templates/newsletter.html, _partials/footer.html).
import { useMemo, useState } from "react";
import { NewsletterForm, type NewsletterFormProps } from "../lib/newsletter";
import type { Notice } from "../lib/newsletter-effects";

export type NewsletterSignupProps = Omit<NewsletterFormProps, "effects">;

// Until the page has its shared toast region, a notice shows under the
// form, announced to screen readers.
export default function NewsletterSignup(props: NewsletterSignupProps) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const effects = useMemo(() => ({ notify: setNotice, subscribed: () => {} }), []);
  return (
    <>
      <NewsletterForm {...props} effects={effects} />
      {notice && (
        <div
          role={notice.variant === "destructive" ? "alert" : "status"}
          className={
            "mt-3 rounded-md border p-3 text-sm " +
            (notice.variant === "destructive"
              ? "border-red-700 bg-red-700 text-white"
              : "border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100")
          }
        >
          <p className="font-semibold">{notice.title}</p>
          {notice.description && <p className="mt-1">{notice.description}</p>}
        </div>
      )}
    </>
  );
}
