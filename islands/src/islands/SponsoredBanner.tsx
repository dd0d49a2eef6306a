// The sponsored banner. The product's rule: it rotates through the
// advertisers (content/ads: payment, banking and compliance firms), one
// at a time, the next every 10 seconds, wrapping around; it can be
// dismissed, and is then hidden; a failure of it is only logged. Here it
// also stops while hovered or focused, on its own Pause button, and never
// rotates under prefers-reduced-motion (WCAG 2.2.2); Dismiss hides it for
// the rest of the visit (sessionStorage); after a failure the page
// carries on without the banner.
//
// The 10 seconds are seconds of being shown: an ad turns after 10 s on
// screen with nothing holding it. The clock also stops while the tab is
// hidden (or the page is in the back/forward cache) and while the banner
// is scrolled out of view (it mounts 200 px before it comes into view);
// before, it ran on there, and a reader coming back to the tab or
// scrolling to the banner saw the ad turn after a few seconds. Whatever
// held it, the ad then gets its full 10 seconds again.
import { Component, useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import cardStrings from "../../../internal/i18n/strings/card.json";
import { pagePath, translator } from "../lib/i18n";
import { contentLang } from "../lib/lang";

const t = translator(cardStrings);

export type Ad = {
  id: string;
  title: string;
  description: string;
  company: string;
  category: string;
  ctaText: string;
  targetUrl: string;
};

type Props = { ads: Ad[] };

export const rotateMs = 10_000;
export const dismissedKey = "regpulse-sponsored-dismissed";

function readDismissed(): boolean {
  try {
    return sessionStorage.getItem(dismissedKey) === "1";
  } catch {
    return false;
  }
}

function useReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false);
  useEffect(() => {
    const mq = window.matchMedia?.("(prefers-reduced-motion: reduce)");
    if (!mq) return;
    const on = () => setReduced(mq.matches);
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  return reduced;
}

const control =
  "inline-flex min-h-11 min-w-11 items-center justify-center rounded-md px-2 text-sm font-medium text-amber-950 hover:bg-amber-100 dark:text-amber-100 dark:hover:bg-slate-800";

// hiddenPage is whether the tab is hidden now (or the page put in the
// back/forward cache, which hides it first).
const hiddenPage = () => typeof document !== "undefined" && document.visibilityState === "hidden";

const observable = () => typeof IntersectionObserver === "function";

// shownShare is the share of the banner that must be in the viewport for
// it to count as shown.
export const shownShare = 0.5;

function Banner({ ads }: Props) {
  const root = useRef<HTMLElement>(null);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [hidden, setHidden] = useState(hiddenPage);
  // Until the observer's first report the banner counts as off screen;
  // without the API (old browsers, tests) as on screen.
  const [offscreen, setOffscreen] = useState(observable);
  const [dismissed, setDismissed] = useState(readDismissed);
  const reduced = useReducedMotion();
  const rotating = ads.length > 1 && !paused && !hovered && !focused && !hidden && !offscreen && !reduced && !dismissed;
  // What holds the rotation as of the event itself: a timer due just
  // after a hover, a focus, Pause or the tab hidden may fire before React
  // has rendered the new state and cleared it, and must not turn the ad then.
  const holds = useRef({ hovered: false, focused: false, paused: false, hidden: hiddenPage(), offscreen: observable() });
  // one hold set where the timer reads it and where React renders it
  // (the state setters are stable, so hold is too)
  const hold = useCallback((what: keyof typeof holds.current, on: boolean) => {
    holds.current[what] = on;
    ({ hovered: setHovered, focused: setFocused, paused: setPaused, hidden: setHidden, offscreen: setOffscreen })[what](on);
  }, []);

  useEffect(() => {
    const on = () => hold("hidden", hiddenPage());
    on(); // the tab may have been hidden between the first render and now
    document.addEventListener("visibilitychange", on);
    return () => document.removeEventListener("visibilitychange", on);
  }, [hold]);

  const shown = !dismissed && ads.length > 0;
  useEffect(() => {
    const el = root.current;
    if (!shown || !el || !observable()) return;
    const io = new IntersectionObserver(
      (entries) => {
        const last = entries[entries.length - 1];
        // (a little under the share: the crossing's ratio is a float)
        if (last) hold("offscreen", !(last.isIntersecting && last.intersectionRatio >= shownShare - 0.01));
      },
      { threshold: [0, shownShare, 1] },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [shown, hold]);

  // A layout effect: the 10 s start in the commit that shows the ad (and
  // data-rotating says so), not some time after it.
  useLayoutEffect(() => {
    if (!rotating) return;
    const t = setTimeout(() => {
      const h = holds.current;
      if (!h.hovered && !h.focused && !h.paused && !h.hidden && !h.offscreen) setIndex((i) => (i + 1) % ads.length);
    }, rotateMs);
    return () => clearTimeout(t);
  }, [rotating, index, ads.length]);

  // Dismissed: the island's box (which reserves the banner's height) goes too.
  useEffect(() => {
    const host = root.current?.parentElement ?? null;
    if (dismissed && host) host.hidden = true;
  });

  if (dismissed || ads.length === 0) return <span ref={root} hidden />;
  const ad = ads[index];
  const dismiss = () => {
    try {
      sessionStorage.setItem(dismissedKey, "1");
    } catch (err) {
      console.error("sponsored banner:", err);
    }
    setDismissed(true);
  };

  return (
    <section
      ref={root}
      aria-label={t("card.sponsoredLabel")}
      data-sponsored
      data-ad-index={index}
      data-rotating={rotating}
      className="flex h-full min-h-72 min-w-0 flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-slate-900"
      onMouseEnter={() => hold("hovered", true)}
      onMouseLeave={() => hold("hovered", false)}
      onFocus={() => hold("focused", true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) hold("focused", false);
      }}
    >
      <div className="flex min-h-11 items-center justify-between gap-2">
        <p aria-hidden="true" className="text-xs font-semibold uppercase tracking-wide text-amber-900 dark:text-amber-200">
          {t("card.sponsored")}
        </p>
        <div className="flex items-center gap-1">
          {ads.length > 1 && !reduced && (
            <button
              type="button"
              className={control}
              aria-label={paused ? t("card.playRotation") : t("card.pauseRotation")}
              // toggled from the ref: a second press before React renders the first undoes it
              onClick={() => hold("paused", !holds.current.paused)}
            >
              {paused ? t("card.play") : t("card.pause")}
            </button>
          )}
          <button type="button" className={control} aria-label={t("card.dismissBanner")} onClick={dismiss}>
            {t("card.dismiss")}
          </button>
        </div>
      </div>
      <p className="text-xs text-slate-700 dark:text-slate-300">
        {ad.company} · {ad.category}
        {ads.length > 1 && <span className="ml-2">{t("card.adPosition", { N: index + 1, Total: ads.length })}</span>}
      </p>
      <p className="text-lg font-semibold leading-snug" data-ad-title lang={contentLang()}>
        {ad.title}
      </p>
      <p className="text-sm text-slate-700 dark:text-slate-300" lang={contentLang()}>
        {ad.description}
      </p>
      <a
        href={pagePath(ad.targetUrl)}
        className="mt-auto inline-flex min-h-11 items-center self-start rounded-md bg-brand-700 px-4 text-sm font-medium text-white hover:bg-brand-800"
        lang={contentLang()}
      >
        {ad.ctaText}
      </a>
    </section>
  );
}

// A failure of the banner is logged and the banner left out; it never
// takes the page with it.
class OnlyLog extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(err: unknown) {
    console.error("sponsored banner:", err);
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

export default function SponsoredBanner(props: Props) {
  return (
    <OnlyLog>
      <Banner {...props} />
    </OnlyLog>
  );
}
