import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { axeViolations, screenshot } from "./helpers";

// Webhooks and chat channels (issue 47) against stand-in receivers on
// loopback, started inside each test (node http servers on free ports;
// the server of these tests allows loopback endpoints,
// --webhooks-allow-loopback, and sends every second with a shortened
// retry schedule, --webhooks-every 1s --webhooks-retry-scale):
// - a webhook receiver that verifies every delivery with the
//   `standardwebhooks` npm package, an implementation of Standard
//   Webhooks 1.0 the product does not share, processes each webhook-id
//   once, and rejects a replayed request and a late timestamp;
// - a receiver that fails on purpose, to show the retries in the
//   delivery log and the endpoint turned off;
// - Slack and Teams stand-ins that check the payloads' documented shapes
//   (Block Kit; a Workflows message carrying an Adaptive Card).
// An admin adds the endpoints on /organisation, sends a test event, sees
// it delivered in the log and resends it.

const password = "S3cret-Pa55word!";
let counter = 0;
const unique = (info: TestInfo, what: string) => `${what}${info.project.name[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;

// Deliveries go every second; a retried one takes a few seconds more.
const deliveryTimeout = 60_000;

async function account(request: APIRequestContext, info: TestInfo) {
  const username = unique(info, "hook");
  const res = await request.post("/api/auth/signup", { data: { username, email: `${username}@example.com`, password, firstName: "Asha", lastName: "Rao" } });
  expect(res.status()).toBe(201);
  const token = ((await res.json()) as { token: string }).token;
  return { token, auth: { Authorization: `Bearer ${token}` } };
}

async function organisation(request: APIRequestContext, info: TestInfo, auth: Record<string, string>) {
  const res = await request.post("/api/organisations", { headers: auth, data: { name: `Hooks Org ${unique(info, "")}`, entityTypes: ["PSP"] } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function pageOf(browser: Browser, token: string) {
  const page = await (await browser.newContext()).newPage();
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  return page;
}

// Received is one request a stand-in got and what it made of it.
type Received = { headers: IncomingHttpHeaders; body: string; status: number; verdict: string };

// standIn starts a loopback server answering each request with
// answer(headers, body) → [status, verdict]; it keeps what it got.
async function standIn(answer: (headers: IncomingHttpHeaders, body: string) => [number, string]) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const [status, verdict] = answer(req.headers, body);
      got.push({ headers: req.headers, body, status, verdict });
      res.writeHead(status, { "Content-Type": "text/plain" }).end(verdict);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const headersOf = (h: IncomingHttpHeaders) => ({
  "webhook-id": String(h["webhook-id"] ?? ""),
  "webhook-timestamp": String(h["webhook-timestamp"] ?? ""),
  "webhook-signature": String(h["webhook-signature"] ?? ""),
});

// webhookReceiver verifies every request with standardwebhooks (the
// signature over id.timestamp.body with the endpoint's secret, and the
// timestamp within five minutes of now, which the library checks) and
// processes each webhook-id once: a redelivery (the same id, signed
// anew at a later attempt) is acknowledged and not processed again; the
// very request again (the same id and timestamp: someone replaying what
// they captured) is rejected.
async function webhookReceiver() {
  let secret = "";
  const processed = new Map<string, string>(); // webhook-id → its first timestamp
  const r = await standIn((h, body) => {
    const hs = headersOf(h);
    try {
      new Webhook(secret).verify(body, hs);
    } catch (err) {
      return [400, `rejected: ${(err as Error).message}`];
    }
    const first = processed.get(hs["webhook-id"]);
    if (first === hs["webhook-timestamp"]) return [409, "rejected: replayed webhook-id"];
    if (first) return [200, "duplicate: already processed"];
    processed.set(hs["webhook-id"], hs["webhook-timestamp"]);
    return [200, "processed"];
  });
  return { ...r, setSecret: (s: string) => (secret = s) };
}

// addEndpoint adds an endpoint through the form and answers the secret
// shown ("" for a chat channel, which has none).
async function addEndpoint(page: Page, kind: string, url: string, description: string, events: string[]) {
  const hooks = page.locator("[data-webhooks]");
  await hooks.locator("[data-webhook-add]").click();
  const form = hooks.locator("[data-webhook-form]").last();
  await form.getByLabel("Kind").selectOption(kind);
  await form.getByLabel("URL").fill(url);
  await form.getByLabel("Description (optional)").fill(description);
  for (const e of events) await form.getByLabel(e).check();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  const row = hooks.locator("[data-webhook]", { hasText: url });
  await expect(row).toBeVisible();
  if (kind !== "webhook") return "";
  const secret = hooks.locator("[data-webhook-secret-value]");
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/=]+$/);
  const value = (await secret.textContent()) ?? "";
  await hooks.getByRole("button", { name: "Done" }).click();
  return value;
}

test.describe("webhooks", () => {
  // The stand-ins listen in the test's own process; one project is enough.
  test.skip(({ isMobile }) => isMobile, "desktop only: the receivers are the same on every project");

  test("an admin adds a webhook, sends a test event verified by standardwebhooks, sees it delivered and resends it; a replay and a late one are rejected", async ({ browser, request }, info) => {
    const admin = await account(request, info);
    const orgID = await organisation(request, info, admin.auth);
    const receiver = await webhookReceiver();
    try {
      const page = await pageOf(browser, admin.token);
      await page.goto(`/organisation?id=${orgID}`);
      await expect(page.locator("[data-webhooks]")).toContainText("No endpoints yet.");
      const secret = await addEndpoint(page, "webhook", `${receiver.url}/hooks/regpulse`, "GRC feed", ["Circular published", "Decision changed"]);
      receiver.setSecret(secret);
      const row = page.locator("[data-webhook]", { hasText: receiver.url });
      await expect(row.locator("[data-webhook-status]")).toHaveText("On");

      await row.getByRole("button", { name: "Send test event" }).click();
      const log = row.locator("[data-webhook-log]");
      const delivery = log.locator("[data-delivery]").first();
      // The test event is in the log at once (pending until sent).
      await expect(delivery.locator("[data-delivery-status]")).toHaveText(/^(pending|sending|delivered)$/);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, info, "organisation-webhooks");
      await expect(delivery.locator("[data-delivery-status]")).toHaveText("delivered", { timeout: deliveryTimeout });
      await expect(delivery.locator("[data-delivery-answer]")).toContainText("HTTP 200");
      const eventID = (await delivery.getAttribute("data-event-id")) ?? "";
      expect(eventID).toMatch(/^msg_/);
      // The receiver verified it with the library, and it is the test event.
      const first = receiver.got.find((g) => g.headers["webhook-id"] === eventID);
      expect(first?.verdict).toBe("processed");
      expect(JSON.parse(first?.body ?? "{}")).toMatchObject({ type: "webhook.test", data: { endpointId: expect.any(String) } });
      expect(receiver.got.every((g) => g.verdict !== "" && !g.verdict.startsWith("rejected"))).toBe(true);

      // Resent: the same event, so the same webhook-id, signed anew.
      await delivery.getByRole("button", { name: "Resend" }).click();
      await expect.poll(() => receiver.got.filter((g) => g.headers["webhook-id"] === eventID).length, { timeout: deliveryTimeout }).toBe(2);
      const again = receiver.got.filter((g) => g.headers["webhook-id"] === eventID)[1];
      expect(again.verdict).toBe("duplicate: already processed");
      await expect(delivery.locator("[data-delivery-status]")).toHaveText("delivered", { timeout: deliveryTimeout });
      await expect(delivery.locator("[data-delivery-attempts]")).toHaveText("2");

      // Someone replays the request they captured: rejected.
      const replay = await request.post(`${receiver.url}/hooks/regpulse`, { headers: { ...headersOf(first!.headers), "Content-Type": "application/json" }, data: first!.body });
      expect(replay.status()).toBe(409);
      expect(await replay.text()).toBe("rejected: replayed webhook-id");
      // One signed six minutes ago (beyond the five minutes' tolerance):
      // the library refuses it.
      const late = new Date(Date.now() - 6 * 60_000);
      const lateBody = JSON.stringify({ type: "webhook.test", timestamp: late.toISOString(), data: {} });
      const lateHeaders = { "webhook-id": "msg_late", "webhook-timestamp": String(Math.floor(late.getTime() / 1000)), "webhook-signature": new Webhook(secret).sign("msg_late", late, lateBody) };
      expect(() => new Webhook(secret).verify(lateBody, lateHeaders)).toThrow(/too old/i);
      const lateRes = await request.post(`${receiver.url}/hooks/regpulse`, { headers: { ...lateHeaders, "Content-Type": "application/json" }, data: lateBody });
      expect(lateRes.status()).toBe(400);
      expect(await lateRes.text()).toMatch(/^rejected: .*too old/i);
      // A forged signature too.
      expect(() => new Webhook("whsec_" + Buffer.from("not the secret at all, 32 bytes!").toString("base64")).verify(first!.body, headersOf(first!.headers))).toThrow();

      await screenshot(page, info, "organisation-webhooks-delivered");
    } finally {
      await receiver.close();
    }
  });

  test("a receiver that fails shows the retries in the log, and one that is gone turns its endpoint off", async ({ browser, request }, info) => {
    const admin = await account(request, info);
    const orgID = await organisation(request, info, admin.auth);
    // 500 to every request.
    const failing = await standIn(() => [500, "receiver down on purpose"]);
    // 500 twice, then 410 Gone: the sender turns the endpoint off at once.
    let hits = 0;
    const gone = await standIn(() => (++hits <= 2 ? [500, "receiver down on purpose"] : [410, "gone"]));
    try {
      const page = await pageOf(browser, admin.token);
      await page.goto(`/organisation?id=${orgID}`);
      await addEndpoint(page, "webhook", `${failing.url}/fail`, "Failing on purpose", ["Alert matched"]);
      await addEndpoint(page, "webhook", `${gone.url}/gone`, "Gone", ["Alert matched"]);
      for (const url of [failing.url, gone.url]) {
        const row = page.locator("[data-webhook]", { hasText: url });
        await row.getByRole("button", { name: "Send test event" }).click();
      }

      // The failing one is retried, each attempt in the log.
      const failRow = page.locator("[data-webhook]", { hasText: failing.url });
      const failed = failRow.locator("[data-delivery]").first();
      await expect.poll(async () => Number(await failed.locator("[data-delivery-attempts]").textContent()), { timeout: deliveryTimeout }).toBeGreaterThanOrEqual(3);
      await expect(failed.locator("[data-delivery-answer]")).toContainText("HTTP 500");
      await expect(failed).toContainText("receiver down on purpose");
      expect(failing.got.length).toBeGreaterThanOrEqual(3);
      // Every attempt carries the same webhook-id.
      expect(new Set(failing.got.map((g) => g.headers["webhook-id"])).size).toBe(1);
      const id = failing.got[0].headers["webhook-id"] as string;
      const logRes = await request.get(`/api/organisations/${orgID}/webhooks`, { headers: admin.auth });
      const failEndpoint = ((await logRes.json()) as { id: string; url: string }[]).find((e) => e.url.startsWith(failing.url))!;
      const deliveries = (await (await request.get(`/api/organisations/${orgID}/webhooks/${failEndpoint.id}/deliveries`, { headers: admin.auth })).json()) as {
        eventId: string;
        history: { statusCode: number }[];
      }[];
      expect(deliveries[0].eventId).toBe(id);
      expect(deliveries[0].history.slice(0, 3).map((a) => a.statusCode)).toEqual([500, 500, 500]);

      // The gone one is off, saying why; an admin turns it on again.
      await page.reload();
      const goneRow = page.locator("[data-webhook]", { hasText: gone.url });
      await expect
        .poll(
          async () => {
            await page.reload();
            return goneRow.getAttribute("data-enabled");
          },
          { timeout: deliveryTimeout },
        )
        .toBe("false");
      await expect(goneRow.locator("[data-webhook-status]")).toHaveText(/^Off: .+/);
      await goneRow.getByRole("button", { name: "Turn on" }).click();
      await expect(goneRow.locator("[data-webhook-status]")).toHaveText("On");
    } finally {
      await failing.close();
      await gone.close();
    }
  });

  test("Slack and Teams stand-ins get Block Kit and an Adaptive Card", async ({ browser, request }, info) => {
    const admin = await account(request, info);
    const orgID = await organisation(request, info, admin.auth);
    // Slack's incoming webhooks: a text (the notification's fallback) and
    // blocks, here a header, a section and actions (the links).
    const slack = await standIn((_, body) => {
      const m = JSON.parse(body) as { text?: unknown; blocks?: { type: string }[] };
      const types = (m.blocks ?? []).map((b) => b.type);
      const ok = typeof m.text === "string" && m.text !== "" && ["header", "section", "actions"].every((t) => types.includes(t));
      return ok ? [200, "ok"] : [400, `invalid_blocks: ${types.join(",")}`];
    });
    // A Teams Workflows webhook: a message with one attachment, an
    // Adaptive Card (its content's type, version and body).
    const teams = await standIn((_, body) => {
      const m = JSON.parse(body) as { type?: string; attachments?: { contentType?: string; content?: { type?: string; version?: string; body?: unknown[] } }[] };
      const a = m.attachments ?? [];
      const c = a[0]?.content;
      const ok =
        m.type === "message" && a.length === 1 && a[0].contentType === "application/vnd.microsoft.card.adaptive" && c?.type === "AdaptiveCard" && typeof c.version === "string" && Array.isArray(c.body) && c.body.length > 0;
      return ok ? [202, ""] : [400, "not a message with one Adaptive Card"];
    });
    try {
      const page = await pageOf(browser, admin.token);
      await page.goto(`/organisation?id=${orgID}`);
      expect(await addEndpoint(page, "slack", `${slack.url}/services/T000/B000/x`, "Compliance channel", ["Circular published", "Alert matched"])).toBe("");
      expect(await addEndpoint(page, "teams", `${teams.url}/workflows/regpulse`, "Teams channel", ["Circular published"])).toBe("");
      for (const url of [slack.url, teams.url]) {
        const row = page.locator("[data-webhook]", { hasText: url });
        await expect(row.getByRole("button", { name: "Rotate secret" })).toHaveCount(0); // no secret
        await row.getByRole("button", { name: "Send test event" }).click();
        await expect(row.locator("[data-delivery]").first().locator("[data-delivery-status]")).toHaveText("delivered", { timeout: deliveryTimeout });
      }
      expect(slack.got.map((g) => g.verdict)).toEqual(["ok"]);
      expect(teams.got.map((g) => g.status)).toEqual([202]);
      // A chat message carries no signature (its URL is its credential).
      expect(slack.got[0].headers["webhook-signature"]).toBeUndefined();
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await slack.close();
      await teams.close();
    }
  });

  test("the stand-in receiver verifies with standardwebhooks and rejects a replay and a late timestamp", async ({ browser, request }, info) => {
    // The product's secret, made in the browser; the requests signed here
    // by the library stand for the product's until the sender sends them
    // (the test above has the product's own).
    const admin = await account(request, info);
    const orgID = await organisation(request, info, admin.auth);
    const receiver = await webhookReceiver();
    try {
      const page = await pageOf(browser, admin.token);
      await page.goto(`/organisation?id=${orgID}`);
      const secret = await addEndpoint(page, "webhook", `${receiver.url}/in`, "", ["Alert matched"]);
      receiver.setSecret(secret);
      const wh = new Webhook(secret);
      const send = (id: string, at: Date, body: string) =>
        request.post(`${receiver.url}/in`, {
          headers: { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": wh.sign(id, at, body), "Content-Type": "application/json" },
          data: body,
        });
      const body = JSON.stringify({ type: "webhook.test", timestamp: new Date().toISOString(), data: {} });
      const now = new Date();
      expect(await (await send("msg_1", now, body)).text()).toBe("processed");
      const replay = await send("msg_1", now, body);
      expect([replay.status(), await replay.text()]).toEqual([409, "rejected: replayed webhook-id"]);
      const late = await send("msg_2", new Date(Date.now() - 6 * 60_000), body);
      expect(late.status()).toBe(400);
      expect(await late.text()).toMatch(/too old/i);
      const tampered = await request.post(`${receiver.url}/in`, {
        headers: { "webhook-id": "msg_3", "webhook-timestamp": String(Math.floor(now.getTime() / 1000)), "webhook-signature": wh.sign("msg_3", now, body), "Content-Type": "application/json" },
        data: body.replace("webhook.test", "webhook.tset"),
      });
      expect(tampered.status()).toBe(400);
    } finally {
      await receiver.close();
    }
  });

  test("the API refuses a private address and, with loopback allowed, still a private range", async ({ request }, info) => {
    const admin = await account(request, info);
    const orgID = await organisation(request, info, admin.auth);
    for (const url of ["https://10.0.0.7/in", "http://192.168.1.4/in", "https://169.254.169.254/latest/meta-data"]) {
      const res = await request.post(`/api/organisations/${orgID}/webhooks`, { headers: admin.auth, data: { kind: "webhook", url, description: "", events: ["alert.matched"] } });
      expect(res.status(), url).toBe(400);
      expect(((await res.json()) as { fields: Record<string, string> }).fields.url, url).toBeTruthy();
    }
  });
});
