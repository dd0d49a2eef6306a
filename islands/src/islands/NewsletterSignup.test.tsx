import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dataNewsletterFooter, sel } from "../lib/contract";
import { failureFallback, isValidEmail, NewsletterForm, subscribersKey, successText } from "../lib/newsletter";
import { queryClient } from "../lib/query";
import { inAct, loadPage, mountIsland, resetPage } from "../test/fixture";
import { toast } from "../lib/toast";
import NewsletterSignup from "./NewsletterSignup";
import { bodyOf, pathOf } from "../test/fetch";

// The page's toast region is the accounts' (lib/toast.tsx, seen in the
// browser tests); here the calls to it are checked.
vi.mock("../lib/toast", () => ({ toast: vi.fn(), showPendingToast: vi.fn() }));
const toasts = () => vi.mocked(toast).mock.calls.map(([t]) => t);

type Call = { url: string; body: unknown };

function stubAPI(status: number, body: unknown): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (req: Request) => {
      calls.push({ url: pathOf(req), body: await bodyOf(req) });
      return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
    }),
  );
  return calls;
}

// pending makes every call wait until release is called.
function stubPending(): () => void {
  let release = () => {};
  vi.stubGlobal(
    "fetch",
    vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(new Response(JSON.stringify({ status: "subscribed", message: "ok" }), { status: 201 }));
        }),
    ),
  );
  return () => release();
}

describe("isValidEmail", () => {
  it.each([
    ["a@example.com", true],
    ["first.last+tag@sub.example.co.in", true],
    ["no-at.example.com", false],
    [".lead@example.com", false],
    ["two..dots@example.com", false],
    ["a@example", false],
    ["a@example.c", false],
    ["", false],
  ])("%s: %s", (s, want) => expect(isValidEmail(s)).toBe(want));
});

describe("NewsletterSignup on /newsletter", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.mocked(toast).mockClear();
    resetPage();
  });
  const open = async () => {
    await loadPage("/newsletter");
    return mountIsland("NewsletterSignup", NewsletterSignup);
  };

  it("offers the five topics, the defaults checked, and sends the page's choices", async () => {
    const calls = stubAPI(201, { status: "subscribed", message: successText });
    const el = await open();
    const form = within(el);
    expect(form.getByRole("heading", { name: "Subscribe to Monthly Updates" })).toBeTruthy();
    const boxes = form.getAllByRole("checkbox") as HTMLInputElement[];
    expect(boxes.map((b) => [b.parentElement!.textContent, b.checked])).toEqual([
      ["Regulatory Updates", true],
      ["Payment Systems", true],
      ["Fintech Industry News", false],
      ["Industry Events", false],
      ["Compliance Insights", false],
    ]);
    fireEvent.click(form.getByRole("checkbox", { name: "Industry Events" }));
    fireEvent.click(form.getByRole("checkbox", { name: "Payment Systems" }));
    fireEvent.change(form.getByLabelText("First name (optional)"), { target: { value: " Asha " } });
    fireEvent.change(form.getByLabelText("E-mail address"), { target: { value: "asha@example.com" } });
    await inAct(() => fireEvent.click(form.getByRole("button", { name: "Subscribe" })));
    await waitFor(() => expect(form.getByRole("heading", { name: "Successfully Subscribed!" })).toBeTruthy());
    expect(calls).toEqual([
      { url: "/api/newsletter/subscribe", body: { email: "asha@example.com", source: "newsletter-page", firstName: "Asha", preferences: ["regulatory", "events"] } },
    ]);
    expect(form.queryByRole("button", { name: "Subscribe" })).toBeNull();
    expect(toasts()).toEqual([{ title: "Successfully subscribed!", description: successText }]);
  });

  it("says 'Please enter a valid email address' and sends nothing", async () => {
    const calls = stubAPI(201, {});
    const el = await open();
    const form = within(el);
    fireEvent.change(form.getByLabelText("E-mail address"), { target: { value: "not-an-address" } });
    await inAct(() => fireEvent.click(form.getByRole("button", { name: "Subscribe" })));
    expect(form.getByText("Please enter a valid email address")).toBeTruthy();
    expect(form.getByLabelText("E-mail address").getAttribute("aria-invalid")).toBe("true");
    expect(calls).toEqual([]);
  });

  it("shows 'Subscribing...' disabled while it waits", async () => {
    const release = stubPending();
    const el = await open();
    const form = within(el);
    fireEvent.change(form.getByLabelText("E-mail address"), { target: { value: "a@example.com" } });
    await inAct(() => fireEvent.click(form.getByRole("button", { name: "Subscribe" })));
    const button = form.getByRole("button", { name: "Subscribing..." }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await inAct(() => release());
    await waitFor(() => expect(form.getByRole("heading", { name: "Successfully Subscribed!" })).toBeTruthy());
  });

  it.each([
    [429, { error: "Too many attempts; try again later" }, "Too many attempts; try again later"],
    [500, { error: "internal server error" }, failureFallback],
  ])("keeps the form after a %i and says why", async (status, body, want) => {
    stubAPI(status, body);
    const el = await open();
    const form = within(el);
    fireEvent.change(form.getByLabelText("E-mail address"), { target: { value: "a@example.com" } });
    await inAct(() => fireEvent.click(form.getByRole("button", { name: "Subscribe" })));
    await waitFor(() => expect(toasts()).toEqual([{ title: "Subscription failed", description: want, variant: "destructive" }]));
    expect((form.getByLabelText("E-mail address") as HTMLInputElement).value).toBe("a@example.com");
    expect(form.getByRole("button", { name: "Subscribe" })).toBeTruthy();
  });
});

describe("the compact form", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.mocked(toast).mockClear();
    resetPage();
  });

  it("sends the address with its source and no topics, then tells the page", async () => {
    const calls = stubAPI(200, { status: "updated", message: "You are already subscribed; your details and topics are updated." });
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    render(
      <QueryClientProvider client={queryClient}>
        <NewsletterForm source="dashboard" variant="compact" title="Newsletter" />
      </QueryClientProvider>,
    );
    fireEvent.change(screen.getByLabelText("E-mail address"), { target: { value: " b@example.com " } });
    await inAct(() => fireEvent.click(screen.getByRole("button", { name: "Subscribe" })));
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: subscribersKey }));
    expect(calls[0].body).toEqual({ email: "b@example.com", source: "dashboard" });
    expect(toasts()).toEqual([{ title: "Successfully subscribed!", description: successText }]);
    expect(screen.getByRole("status").textContent).toContain("You are already subscribed");
    expect(screen.queryByRole("checkbox")).toBeNull();
  });
});

describe("the footer form", () => {
  afterEach(() => resetPage());

  it("is on every page as a plain form posting to the API, source website", async () => {
    for (const path of ["/", "/newsletter", "/news"]) {
      await loadPage(path);
      const footer = document.querySelector<HTMLElement>(sel(dataNewsletterFooter))!;
      const form = footer.querySelector("form")!;
      expect(form.getAttribute("action")).toBe("/api/newsletter/subscribe");
      expect(form.getAttribute("method")).toBe("post");
      expect(form.querySelector<HTMLInputElement>("input[name=source]")!.value).toBe("website");
      expect(JSON.parse(footer.dataset.props!)).toEqual({ source: "website", variant: "footer", title: "Get the monthly update" });
    }
  });
});

describe("NewsletterForm in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
    vi.unstubAllGlobals();
    vi.mocked(toast).mockClear();
    resetPage();
  });

  it("labels the page's form and thanks the subscriber in the page's language", async () => {
    document.documentElement.lang = "hi";
    stubAPI(201, { status: "subscribed", message: "ok" });
    render(
      <QueryClientProvider client={queryClient}>
        <NewsletterForm source="newsletter-page" variant="page" title="मासिक अपडेट की सदस्यता लें" topics={[{ id: "regulatory", label: "Regulatory Updates", default: true }]} />
      </QueryClientProvider>,
    );
    expect(screen.getByLabelText("पहला नाम (वैकल्पिक)")).toBeTruthy();
    expect(screen.getByRole("group", { name: "विषय" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("ई-मेल पता"), { target: { value: "asha@example.com" } });
    await inAct(() => fireEvent.click(screen.getByRole("button", { name: "सदस्यता लें" })));
    await waitFor(() => expect(screen.getByRole("heading", { name: "सदस्यता सफलतापूर्वक ली गई!" })).toBeTruthy());
    expect(toasts()).toEqual([{ title: "सदस्यता सफलतापूर्वक ली गई!", description: "हमारे न्यूज़लेटर की सदस्यता लेने के लिए धन्यवाद। हमारा अगला अपडेट आपको जल्द ही मिलेगा।" }]);
  });
});
