import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "../lib/api";
import { followButton, signedOutNote } from "../lib/follows";
import { queryClient } from "../lib/query";
import { pathOf } from "../test/fetch";
// The direction page's template, whose fallback is the signed-out rendering.
import page from "../../../templates/direction.html?raw";
import FollowDirection from "./FollowDirection";

// stubLocation puts the page at path and records where it is sent.
function stubLocation(path: string) {
  window.history.replaceState(null, "", path);
  const assign = vi.fn();
  vi.stubGlobal("location", { href: document.location.href, search: document.location.search, pathname: document.location.pathname, assign });
}

const status = () => screen.getByRole("status").textContent ?? "";

// api answers the signed-in user and their follows, which follow and
// unfollow change; calls records each request as "METHOD path".
function api(initial: string[]) {
  const followed = new Set(initial);
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (req: Request) => {
      const path = pathOf(req);
      calls.push(`${req.method} ${path}`);
      if (path === "/api/auth/me") return new Response(JSON.stringify({ user: { id: "u", username: "asha" } }));
      if (path === "/api/direction-follows")
        return new Response(JSON.stringify([...followed].map((d) => ({ id: "f-" + d, direction: d, title: d, createdAt: "2025-06-30T12:00:00Z", lastSentAt: null }))));
      const slug = path.replace("/api/direction-follows/", "");
      if (req.method === "PUT") {
        followed.add(slug);
        return new Response(JSON.stringify({ id: "f-" + slug, direction: slug, title: slug, createdAt: "2025-06-30T12:00:00Z", lastSentAt: null }));
      }
      followed.delete(slug);
      return new Response(null, { status: 204 });
    }),
  );
  return calls;
}

describe("FollowDirection", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    setToken(null);
    queryClient.clear();
  });

  it("signed out, links to sign-in and back to the page marked follow=1, as the static fallback does", () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    stubLocation("/master-directions/kyc-2016/");
    render(<FollowDirection slug="kyc-2016" />);
    const link = screen.getByRole("link", { name: "Follow this Master Direction" });
    expect(link.getAttribute("href")).toBe("/login?next=" + encodeURIComponent("/master-directions/kyc-2016/?follow=1"));
    expect(status()).toBe(signedOutNote);
    expect(fetch).not.toHaveBeenCalled();
    // The page's fallback is this rendering: the same classes and note.
    expect(page).toContain(`class="${followButton}"`);
    // (the note is the catalogue's directions.followSignIn, as signedOutNote is)
    expect(page).toContain(`(T "directions.followSignIn")`);
    expect(page).toContain("/master-directions/%s/?follow=1");
  });

  it("signed in, follows and stops following", async () => {
    setToken("t");
    stubLocation("/master-directions/kyc-2016/");
    const calls = api(["ppi-2021"]);
    render(<FollowDirection slug="kyc-2016" />);
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Follow this Master Direction" })));
    await waitFor(() => expect(status()).toContain("You follow it"));
    expect(calls).toContain("PUT /api/direction-follows/kyc-2016");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Stop following" })));
    await waitFor(() => expect(status()).toBe("Get an e-mail with the changes whenever it is amended."));
    expect(calls).toContain("DELETE /api/direction-follows/kyc-2016");
  });

  it("back from sign-in, follows once and drops follow=1 from the URL", async () => {
    setToken("t");
    stubLocation("/master-directions/kyc-2016/?follow=1");
    const calls = api([]);
    render(<FollowDirection slug="kyc-2016" />);
    await waitFor(() => expect(status()).toContain("You follow it"));
    expect(calls.filter((c) => c.startsWith("PUT"))).toEqual(["PUT /api/direction-follows/kyc-2016"]);
    expect(document.location.search).toBe("");
  });

  it("says what the server said when following fails", async () => {
    setToken("t");
    stubLocation("/master-directions/gone/");
    vi.stubGlobal(
      "fetch",
      vi.fn(async (req: Request) => {
        const path = pathOf(req);
        if (path === "/api/auth/me") return new Response(JSON.stringify({ user: { id: "u", username: "asha" } }));
        if (path === "/api/direction-follows") return new Response("[]");
        return new Response(JSON.stringify({ error: "no Master Direction with slug gone" }), { status: 404 });
      }),
    );
    render(<FollowDirection slug="gone" />);
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Follow this Master Direction" })));
    await waitFor(() => expect(status()).toBe("no Master Direction with slug gone"));
  });
});

describe("FollowDirection in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
    cleanup();
    vi.unstubAllGlobals();
    setToken(null);
    queryClient.clear();
  });

  it("signed out, says how to follow in the page's language", () => {
    document.documentElement.lang = "hi";
    vi.stubGlobal("fetch", vi.fn());
    stubLocation("/hi/master-directions/kyc-2016/");
    render(<FollowDirection slug="kyc-2016" />);
    expect(screen.getByRole("link", { name: "इस मास्टर निदेश को फ़ॉलो करें" })).toBeTruthy();
    expect(status()).toBe("जब भी इसमें संशोधन हो, बदलावों का ई-मेल पाने के लिए साइन इन करें।");
  });
});
