import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getToken } from "../lib/api";
import { pathOf } from "../test/fetch";
import { loadPage, mountIsland, resetSignedInPage } from "../test/fixture";
import LoginForm from "./LoginForm";

const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json" } });

// onLogin loads /login with search and hash, the browser's address
// stubbed so that leaving the page is a call of assign.
async function onLogin(search: string, hash = "") {
  const assign = vi.fn();
  await loadPage("/login" + search);
  vi.stubGlobal("location", { ...window.location, href: window.location.href, search, hash, pathname: "/login/", assign });
  return assign;
}

afterEach(resetSignedInPage);

describe("LoginForm's single sign-on", () => {
  it("starts with the work e-mail and the page's next, then goes to the provider", async () => {
    const assign = await onLogin("?next=%2Forganisation");
    const calls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      calls.push(pathOf(input));
      return json({ redirectUrl: "https://idp.example/authorize?state=s" });
    });
    await mountIsland("LoginForm", LoginForm);
    expect(screen.getByRole("heading", { name: "Sign in with your organisation's single sign-on" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Work e-mail"), { target: { value: "ravi@example.co.in" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Continue with single sign-on" })));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith("https://idp.example/authorize?state=s"));
    expect(calls).toEqual(["/api/auth/sso/start?email=ravi%40example.co.in&next=%2Forganisation"]);
  });

  it("checks the address first, then shows the API's refusal", async () => {
    await onLogin("");
    const fetch = vi.spyOn(globalThis, "fetch").mockImplementation(async () =>
      json({ error: "No organisation signs in addresses of this e-mail domain through single sign-on: sign in with your password" }, 404),
    );
    await mountIsland("LoginForm", LoginForm);
    fireEvent.change(screen.getByLabelText("Work e-mail"), { target: { value: "not-an-address" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Continue with single sign-on" })));
    expect(await screen.findByText("Invalid email address")).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("Work e-mail"), { target: { value: "a@nobody.example" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Continue with single sign-on" })));
    expect(await screen.findByText(/No organisation signs in addresses of this e-mail domain/)).toBeTruthy();
    // The password form stays.
    expect(screen.getByRole("button", { name: "Sign In" })).toBeTruthy();
  });

  it.each([
    ["#sso_token=tok&next=%2Fcirculars%2F", "/circulars/", "tok"],
    ["#sso_token=tok2&next=%2F%2Fevil.example", "/", "tok2"], // never another site
  ])("keeps the token of the provider's return %s and goes on to %s", async (hash, next, token) => {
    const assign = await onLogin("", hash);
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => json({}, 401));
    await mountIsland("LoginForm", LoginForm);
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith(next));
    expect(getToken()).toBe(token);
  });
});
