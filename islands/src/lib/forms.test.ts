import { afterEach, describe, expect, it } from "vitest";
import fieldRules from "../../../api/testdata/field-rules.json";
import { loginSchema, passwordSchema, ruleSchema, signupSchema, zodResolver } from "./forms";
import { rules } from "./rules.gen";

async function messages(schema: Parameters<typeof zodResolver>[0], values: Record<string, unknown>) {
  const r = await zodResolver(schema)(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });
  return Object.fromEntries(Object.entries(r.errors).map(([k, v]) => [k, (v as { message: string }).message]));
}

const valid = { firstName: "Asha", lastName: "Rao", username: "asha", email: "asha@example.com", password: "secret" };

describe("the account forms' rules, with the API's messages", () => {
  it("sign-in needs a username and a password", async () => {
    expect(await messages(loginSchema, { username: "", password: "" })).toEqual({ username: "Username is required", password: "Password is required" });
    expect(await messages(loginSchema, { username: "a", password: "b" })).toEqual({});
  });

  it.each([
    [{}, {}],
    [{ username: "ab" }, { username: "Username must be at least 3 characters" }],
    [{ username: "a".repeat(51) }, { username: "Username too long" }],
    [{ email: "asha@example" }, { email: "Invalid email address" }],
    [{ email: "a..b@example.com" }, { email: "Invalid email address" }],
    [{ password: "12345" }, { password: "Password must be at least 6 characters" }],
    [{ password: "p".repeat(129) }, { password: "Password too long" }],
    [{ firstName: "  " }, { firstName: "First name is required" }],
    [{ lastName: "" }, { lastName: "Last name is required" }],
  ])("sign-up %j", async (change, want) => {
    expect(await messages(signupSchema, { ...valid, ...change })).toEqual(want);
  });

  it("a password change needs the current password and a valid new one", async () => {
    expect(await messages(passwordSchema, { currentPassword: "", newPassword: "short" })).toEqual({
      currentPassword: "Current password is required",
      newPassword: "Password must be at least 6 characters",
    });
  });
});

// The API's own cases of its field rules (api/testdata/field-rules.json,
// which api/validate_test.go checks the Go side against): the forms'
// schemas, built from the same rules, give the same verdict and message.
describe("the forms' schemas agree with the API's field rules", () => {
  it.each(fieldRules.cases)("$rule: $why", ({ rule, value, message }) => {
    const r = ruleSchema(rules[rule as keyof typeof rules]).safeParse(value);
    expect(r.success ? "" : r.error.issues[0].message).toBe(message);
  });
});

describe("the account forms' rules in Hindi", () => {
  afterEach(() => {
    document.documentElement.lang = "";
  });

  it("a Hindi page's messages are the catalogue's Hindi, read when the check fails", async () => {
    document.documentElement.lang = "hi-IN";
    expect(await messages(loginSchema, { username: "", password: "" })).toEqual({ username: "उपयोगकर्ता नाम आवश्यक है", password: "पासवर्ड आवश्यक है" });
    expect(await messages(signupSchema, { ...valid, email: "asha@example", password: "12345" })).toEqual({
      email: "अमान्य ई-मेल पता",
      password: "पासवर्ड कम से कम 6 वर्णों का होना चाहिए",
    });
    document.documentElement.lang = "en-IN";
    expect(await messages(loginSchema, { username: "", password: "" })).toEqual({ username: "Username is required", password: "Password is required" });
  });
});
