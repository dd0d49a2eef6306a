// A circular of the impact tracker's lists drawn from the generator's
// entries (generator.ImpactEntriesPath), for a search's matches beyond
// the first page the tracker shows: the markup and classes of
// templates/_partials/impact-circular.html.
import type { Circular } from "./api";
import { CardDate, cardClass, DocTypeBadge, SourceBadge, VerificationBadge, type CardLabels } from "./circular-card";
import { pagePath } from "./i18n";
import { itemLang } from "./lang";

export type ImpactEntry = Pick<Circular, "id" | "slug" | "circularNumber" | "title" | "preview" | "lang" | "source" | "documentType" | "verification" | "publishedDate">;

// ImpactEntries are each list's entries by level (high, medium, open),
// in the list's order.
export type ImpactEntries = Record<string, ImpactEntry[]>;

// impactFields are what the tracker's search matches in an entry, as the
// template's data-fields has them.
export const impactFields = (c: ImpactEntry) => ({ circularNumber: c.circularNumber ?? "", title: c.title, id: c.id, slug: c.slug });

export function ImpactCircular({ c, labels }: { c: ImpactEntry; labels: CardLabels }) {
  const lang = itemLang(c.lang);
  return (
    <li className={cardClass} data-fields={JSON.stringify(impactFields(c))}>
      <h3 className="font-semibold leading-snug">
        <a href={pagePath(`/circulars/${c.slug}`)} className="hover:underline">
          {c.circularNumber && (
            <>
              <span className="text-slate-600 dark:text-slate-300">{c.circularNumber}</span> -{" "}
            </>
          )}
          {lang ? <span lang={lang}>{c.title}</span> : c.title}
        </a>
      </h3>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" lang={lang}>
        {c.preview}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
        <SourceBadge source={c.source} />
        <DocTypeBadge type={c.documentType} labels={labels} />
        <VerificationBadge verification={c.verification} labels={labels} />
        <CardDate iso={c.publishedDate} />
      </div>
    </li>
  );
}
