import { QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "./api";
import { queryClient } from "./query";
import { SearchAlert } from "./search-alert";
import { bodyOf, pathOf } from "../test/fetch";

const search = { q: "upi", source: "NPCI", category: "all" };

function mount() {
  return render(
    <QueryClientProvider client={queryClient}>
      <SearchAlert search={search} />
    </QueryClientProvider>,
  );
}

// stubLocation puts the page at path and records where it is sent.
function stubLocation(path: string) {
  window.history.replaceState(null, "", path);
  const href = document.location.href;
  const assign = vi.fn();
  vi.stubGlobal("location", { href, search: document.location.search, pathname: document.location.pathname, assign });
  return assign;
}

const status = () => screen.getByRole("status").textContent ?? "";

describe("SearchAlert", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    setToken(null);
    queryClient.clear();
  });

  it("signed out, goes through sign-in and back to the same search marked alert=1", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const assign = stubLocation("/search?q=upi&source=NPCI");
    mount();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Create alert for this search" })));
    expect(assign).toHaveBeenCalledWith("/login?next=" + encodeURIComponent("/search?q=upi&source=NPCI&alert=1"));
    expect(fetch).not.toHaveBeenCalled();
  });

  it("back from sign-in, saves the search once and drops alert=1 from the URL", async () => {
    setToken("t");
    stubLocation("/search?q=upi&source=NPCI&alert=1");
    const bodies: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (req: Request) => {
        if (pathOf(req) === "/api/auth/me") return new Response(JSON.stringify({ user: { id: "u", username: "asha" } }));
        bodies.push(await bodyOf(req));
        return new Response(JSON.stringify({ id: "a", description: 'A daily digest (from 07:00 UTC) of new circulars matching "upi" from NPCI.' }), { status: 201 });
      }),
    );
    mount();
    await waitFor(() => expect(status()).toContain('Alert created: A daily digest (from 07:00 UTC) of new circulars matching "upi" from NPCI.'));
    expect(bodies).toEqual([{ query: "upi", sources: ["NPCI"], categories: [], name: "upi", frequency: "daily" }]);
    expect(document.location.search).toBe("?q=upi&source=NPCI");
  });

  it("without an account, subscribes the address and shows the server's field message", async () => {
    stubLocation("/search?q=upi&source=NPCI");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify({ error: "invalid email", fields: { email: "Please enter a valid email address" } }), { status: 400 })),
    );
    mount();
    fireEvent.click(screen.getByRole("button", { name: "or get it by e-mail without an account" }));
    fireEvent.change(screen.getByLabelText("Your e-mail address (a daily digest of this search)"), { target: { value: "nope" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Subscribe to this search" })));
    await waitFor(() => expect(status()).toContain("Please enter a valid email address"));
  });
});
