import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import DirectionDates from "./DirectionDates";

const props = {
  slug: "ppi-2021",
  issued: "2021-08-27",
  today: "2026-11-28",
  labels: { added: "Inserted", removed: "Deleted", changed: "Substituted", renumbered: "Renumbered" },
};

const comparison = {
  direction: {},
  from: "2024-01-01",
  to: "2025-12-31",
  added: 0,
  removed: 0,
  changed: 1,
  unknown: [{ date: "2024-02-23", circulars: [], amending: { title: "Amendment to Master Directions on PPIs", number: null, url: null } }],
  changes: [
    {
      provision: "6",
      anchor: "p-6",
      kind: "changed",
      before: null,
      after: null,
      redline: [
        { op: "equal", text: "PPI issuers follow " },
        { op: "delete", text: "the 2016 KYC Master Direction" },
        { op: "insert", text: "the Commercial Banks KYC Directions, 2025" },
      ],
      headingRedline: [],
      by: [{ date: "2025-11-28", circulars: [], amending: { title: "Compliance with KYC norms", number: "RBI/2025-26/101", url: "https://rbi.org.in/x" } }],
      touches: ["Issuer"],
    },
  ],
};

describe("DirectionDates", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("compares two dates through the API and shows the redline as the pages do", async () => {
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify(comparison), { status: 200 }));
    render(<DirectionDates {...props} />);
    const form = screen.getByRole("form", { name: "Compare two dates" });
    fireEvent.change(screen.getByLabelText("From"), { target: { value: "2025-12-31" } });
    fireEvent.change(screen.getByLabelText("To"), { target: { value: "2024-01-01" } });
    fireEvent.submit(form);
    await vi.waitFor(() => expect(document.querySelector("[data-change]")).not.toBeNull());
    const url = new URL((fetch.mock.calls[0][0] as Request).url);
    expect(url.pathname).toBe("/api/master-directions/ppi-2021/compare");
    expect(url.searchParams.get("from")).toBe("2025-12-31");
    expect(url.searchParams.get("to")).toBe("2024-01-01");
    const summary = document.querySelector("[data-direction-answer-summary]")!.textContent;
    expect(summary).toContain("1 changed, 0 inserted and 0 deleted");
    expect(summary).toContain("not recorded: 23 February 2024");
    expect(document.querySelector('[data-redline="insert"]')!.textContent).toBe("[inserted: the Commercial Banks KYC Directions, 2025]");
    expect(document.querySelector('[data-redline="delete"]')!.textContent).toBe("[deleted: the 2016 KYC Master Direction]");
    expect(document.querySelector("[data-change]")!.textContent).toContain("Substituted");
    expect(screen.getByRole("link", { name: "Compliance with KYC norms" }).getAttribute("href")).toBe("https://rbi.org.in/x");
  });

  it("shows the text on a date, and says when the direction was not yet issued", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(JSON.stringify({ direction: {}, date: "2020-01-01", inForce: false, version: null, provisions: [] }), { status: 200 }),
    );
    render(<DirectionDates {...props} />);
    fireEvent.change(screen.getByLabelText("Date of the text"), { target: { value: "2020-01-01" } });
    fireEvent.submit(screen.getByRole("form", { name: "The text on a date" }));
    await vi.waitFor(() => expect(document.querySelector("[data-direction-answer-summary]")?.textContent).toBe("Not yet issued on 1 January 2020."));
  });

  it("says so when the API fails", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify({ error: "no Master Direction with slug ppi-2021" }), { status: 404 }));
    render(<DirectionDates {...props} />);
    fireEvent.submit(screen.getByRole("form", { name: "The text on a date" }));
    await vi.waitFor(() => expect(screen.getByRole("alert").textContent).toContain("Could not load it"));
  });
});

describe("DirectionDates in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
    cleanup();
    vi.restoreAllMocks();
  });

  it("asks and answers in the page's language, its links to the site's pages under /hi", async () => {
    document.documentElement.lang = "hi";
    const change = comparison.changes[0];
    const withCircular = { ...comparison, changes: [{ ...change, by: [{ ...change.by[0], circulars: ["ppi-amendment"] }] }] };
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify(withCircular), { status: 200 }));
    render(<DirectionDates {...props} />);
    fireEvent.submit(screen.getByRole("form", { name: "दो तिथियों की तुलना करें" }));
    await vi.waitFor(() => expect(document.querySelector("[data-change]")).not.toBeNull());
    const summary = document.querySelector("[data-direction-answer-summary]")!.textContent;
    expect(summary).toContain(": 1 बदले गए, 0 जोड़े गए और 0 हटाए गए।");
    expect(summary).toContain("ऐसे अद्यतन जिनके बदलाव दर्ज नहीं हैं:");
    expect(document.querySelector('[data-redline="insert"]')!.textContent).toBe("[जोड़ा गया: the Commercial Banks KYC Directions, 2025]");
    expect(screen.getByRole("link", { name: "Compliance with KYC norms" }).getAttribute("href")).toBe("https://rbi.org.in/x");
    expect(screen.getByRole("link", { name: "ppi-amendment" }).getAttribute("href")).toBe("/hi/circulars/ppi-amendment");
    expect(document.querySelector("[data-change]")!.textContent).toContain("द्वारा बदला गया।");
  });

  it("marks the English text it draws lang=en, never a label in Hindi", async () => {
    document.documentElement.lang = "hi";
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify(comparison), { status: 200 }));
    render(<DirectionDates {...props} />);
    fireEvent.submit(screen.getByRole("form", { name: "दो तिथियों की तुलना करें" }));
    await vi.waitFor(() => expect(document.querySelector("[data-change]")).not.toBeNull());
    const english = [...document.querySelectorAll('[lang="en"]')];
    expect(english.map((e) => e.textContent)).toEqual(
      expect.arrayContaining(["PPI issuers follow ", "the 2016 KYC Master Direction", "the Commercial Banks KYC Directions, 2025", "Compliance with KYC norms"]),
    );
    for (const e of english) expect(e.textContent).not.toMatch(/[\u0900-\u097F]/);
  });
});

describe("DirectionDates in English", () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it("marks no text with a lang of its own", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response(JSON.stringify(comparison), { status: 200 }));
    render(<DirectionDates {...props} />);
    fireEvent.submit(screen.getByRole("form", { name: "Compare two dates" }));
    await vi.waitFor(() => expect(document.querySelector("[data-change]")).not.toBeNull());
    expect(document.body.querySelector("[lang]")).toBeNull();
  });
});
