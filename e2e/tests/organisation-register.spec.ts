import { expect, test, type TestInfo } from "@playwright/test";

// An organisation's register and score (issue 44): its obligations with
// its decisions' statuses (GET /api/organisations/{id}/register), and the
// impact tracker's score, which becomes the organisation's, named, for a
// member of one; My obligations keeps the user's own.

const password = "S3cret-Pa55word!";
let counter = 0;
const unique = (info: TestInfo, what: string) => `${what}${info.project.name[0]}${info.workerIndex}${Date.now().toString(36)}${counter++}`;

type Score = { score: number | null; applicable: number; settled: number; organisation: { id: string; name: string } | null };

test("a member's impact tracker shows the organisation's score, named; its register follows its decisions", async ({ page }, info) => {
  const username = unique(info, "reg");
  const signup = await page.request.post("/api/auth/signup", {
    data: { username, email: `${username}@example.com`, password, firstName: "Asha", lastName: "Rao" },
  });
  expect(signup.status()).toBe(201);
  const token = ((await signup.json()) as { token: string }).token;
  const auth = { Authorization: `Bearer ${token}` };
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);

  const name = `Register Org ${username}`;
  const created = await page.request.post("/api/organisations", { headers: auth, data: { name, entityTypes: ["PSP"] } });
  expect(created.status()).toBe(201);
  const org = (await created.json()) as { id: string };

  const register = async () => {
    const res = await page.request.get(`/api/organisations/${org.id}/register?limit=100`, { headers: auth });
    expect(res.status()).toBe(200);
    return (await res.json()) as { score: Score; items: { id: string; status: string }[] };
  };
  const before = await register();
  expect(before.items.length).toBeGreaterThan(0);
  expect(before.score.settled).toBe(0);
  expect(before.score.organisation?.name).toBe(name);

  // The organisation decides one obligation done: its register and score follow.
  const first = before.items[0];
  const put = await page.request.put(`/api/organisations/${org.id}/decision?type=obligation&subject=${encodeURIComponent(first.id)}`, {
    headers: auth,
    data: { applicability: "applicable", status: "done", version: 0 },
  });
  expect(put.status()).toBe(200);
  const after = await register();
  expect(after.items.find((it) => it.id === first.id)?.status).toBe("done");
  expect(after.score.settled).toBe(1);
  expect(after.score.score).not.toBeNull();

  await page.goto("/impact-tracker");
  const mine = page.locator("[data-your-score]");
  await expect(mine).toContainText(`Compliance score of ${name}:`);
  await expect(mine.locator("[data-score-value]")).toHaveText(`${after.score.score}%`);
  await expect(mine.getByRole("link", { name })).toHaveAttribute("href", `/organisation?id=${encodeURIComponent(org.id)}`);

  // My obligations is the user's own register: nothing of theirs is settled.
  const own = (await (await page.request.get("/api/user/compliance-score?organisation=none", { headers: auth })).json()) as Score;
  expect(own.organisation).toBeNull();
  expect(own.settled).toBe(0);
});
