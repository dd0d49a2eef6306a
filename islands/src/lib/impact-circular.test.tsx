import { render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { loadPage, resetPage } from "../test/fixture";
import { dataFields, dataIsland, dataList, sel } from "./contract";
import type { CardLabels } from "./circular-card";
import { ImpactCircular, type ImpactEntry } from "./impact-circular";

// the markup with its whitespace between elements folded, and without
// data-fields (compared as JSON: the template's escapes differ)
const markup = (el: Element) => {
  const copy = el.cloneNode(true) as Element;
  copy.removeAttribute(dataFields);
  return copy.outerHTML.replace(/\s+/g, " ").replace(/> </g, "><").replace(/> /g, ">").replace(/ </g, "<");
};

describe("ImpactCircular", () => {
  afterEach(resetPage);

  it("draws an entry as the tracker's template does (_partials/impact-circular.html)", async () => {
    await loadPage("/circulars");
    const { labels } = JSON.parse(document.querySelector(sel(dataIsland, "CircularList"))!.getAttribute("data-props")!) as { labels: CardLabels };
    await loadPage("/impact-tracker");
    const li = document.querySelector(`${sel(dataList, "high-circulars")} > li`)!;
    const fields = JSON.parse(li.getAttribute(dataFields)!);
    const c: ImpactEntry = {
      ...fields,
      circularNumber: fields.circularNumber || null,
      preview: li.querySelector("p")!.textContent!,
      source: li.querySelector("[data-source]")!.textContent!,
      documentType: li.querySelector("[data-doctype]")!.getAttribute("data-doctype")!,
      verification: li.querySelector("[data-verification]")?.getAttribute("data-verification") ?? null,
      publishedDate: li.querySelector("time")!.getAttribute("datetime")!,
    };
    expect(c.circularNumber).toBeTruthy();
    expect(c.verification).toBeTruthy(); // the badge and its icon are compared too
    const { container } = render(<ImpactCircular c={c} labels={labels} />);
    const drawn = container.querySelector("li")!;
    expect(markup(drawn)).toBe(markup(li));
    expect(JSON.parse(drawn.getAttribute(dataFields)!)).toEqual(fields);
  });
});
