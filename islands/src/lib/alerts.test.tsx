import { QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setToken } from "./api";
import { AlertsSection } from "./alerts";
import { queryClient } from "./query";
import { bodyOf, pathOf } from "../test/fetch";

const alert = {
  id: "a1",
  kind: "search",
  name: "UPI",
  query: "upi",
  sources: [],
  categories: [],
  documentTypes: [],
  impactLevels: [],
  entityTypes: [],
  frequency: "daily",
  enabled: true,
  feedToken: "f",
  createdAt: "2026-01-01T00:00:00Z",
  lastSentAt: null,
  description: "A daily digest.",
  channelKind: "",
  channelUrl: "",
};

// serve answers the alerts' calls: the list, and a PUT with answer (or
// the alert as sent), recording the bodies sent.
function serve(answer?: Response) {
  const bodies: unknown[] = [];
  let current = { ...alert };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (req: Request) => {
      const path = pathOf(req);
      if (path === "/api/alerts" && req.method === "GET") return new Response(JSON.stringify([current]));
      if (path === "/api/direction-follows") return new Response("[]");
      if (path === "/api/alerts/a1" && req.method === "PUT") {
        const body = (await bodyOf(req)) as Record<string, unknown>;
        bodies.push(body);
        if (answer) return answer;
        current = { ...current, channelKind: "", channelUrl: "", ...body } as typeof alert;
        return new Response(JSON.stringify(current));
      }
      return new Response(JSON.stringify({ error: "not found" }), { status: 404 });
    }),
  );
  return bodies;
}

function mount() {
  return render(
    <QueryClientProvider client={queryClient}>
      <AlertsSection />
    </QueryClientProvider>,
  );
}

describe("AlertsSection's chat channel", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    setToken(null);
    queryClient.clear();
  });

  it("sends a Slack channel with the alert and none once removed", async () => {
    setToken("t");
    const bodies = serve();
    mount();
    const row = await screen.findByRole("listitem", { name: "UPI" });
    fireEvent.change(within(row).getByLabelText("Also post to"), { target: { value: "slack" } });
    fireEvent.change(within(row).getByLabelText("Slack webhook URL"), { target: { value: " https://hooks.slack.com/services/T/B/x " } });
    await act(async () => fireEvent.click(within(row).getByRole("button", { name: "Save" })));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ name: "UPI", frequency: "daily", channelKind: "slack", channelUrl: "https://hooks.slack.com/services/T/B/x" });

    const saved = await screen.findByRole("listitem", { name: "UPI" });
    await waitFor(() => expect((within(saved).getByLabelText("Slack webhook URL") as HTMLInputElement).value).toBe("https://hooks.slack.com/services/T/B/x"));
    fireEvent.change(within(saved).getByLabelText("Also post to"), { target: { value: "" } });
    expect(within(saved).queryByLabelText("Slack webhook URL")).toBeNull();
    await act(async () => fireEvent.click(within(saved).getByRole("button", { name: "Save" })));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).not.toHaveProperty("channelKind");
    expect(bodies[1]).not.toHaveProperty("channelUrl");
  });

  it("shows the server's message on the URL field", async () => {
    setToken("t");
    serve(
      new Response(
        JSON.stringify({
          error: "invalid channelUrl",
          fields: { channelUrl: "a Slack incoming webhook URL starts https://hooks.slack.com/services/" },
        }),
        { status: 400 },
      ),
    );
    mount();
    const row = await screen.findByRole("listitem", { name: "UPI" });
    fireEvent.change(within(row).getByLabelText("Also post to"), { target: { value: "teams" } });
    const url = within(row).getByLabelText("Microsoft Teams webhook URL");
    expect(url.getAttribute("aria-describedby")).toBeTruthy();
    fireEvent.change(url, { target: { value: "https://example.com/x" } });
    await act(async () => fireEvent.click(within(row).getByRole("button", { name: "Save" })));
    await waitFor(() => expect(within(row).getByText(/a Slack incoming webhook URL starts/)).toBeTruthy());
    expect(url.getAttribute("aria-invalid")).toBe("true");
  });
});

describe("AlertsSection in Hindi", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    setToken(null);
    queryClient.clear();
    document.documentElement.lang = "";
  });

  it("shows the catalogue's Hindi and links to the Hindi pages", async () => {
    document.documentElement.lang = "hi";
    setToken("t");
    serve();
    mount();
    const row = await screen.findByRole("listitem", { name: "UPI" });
    expect(screen.getByRole("heading", { name: "अलर्ट" })).toBeTruthy();
    expect(within(row).getByText("पिछली बार भेजा गया: कभी नहीं")).toBeTruthy();
    fireEvent.change(within(row).getByLabelText("यहाँ भी पोस्ट करें"), { target: { value: "slack" } });
    expect(within(row).getByLabelText("Slack वेबहुक URL")).toBeTruthy();
    expect(within(row).getByRole("button", { name: "सहेजें" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "खोज" }).getAttribute("href")).toBe("/hi/search");
    expect(screen.getByRole("link", { name: "मास्टर निदेश" }).getAttribute("href")).toBe("/hi/master-directions");
  });
});
