/// <reference types="node" />
import { readFileSync } from "node:fs";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { expect, it } from "vitest";

// The client's types are api/openapi.json's, as `npm run api-types` last
// wrote them: a declaration changed in Go without regenerating them fails
// here, not in a user's browser.
it("api-types.gen.ts is what openapi-typescript makes of api/openapi.json", async () => {
  const read = (...path: string[]) => readFileSync(join(import.meta.dirname, ...path), "utf8");
  const want = astToString(await openapiTS(JSON.parse(read("../../../api/openapi.json"))));
  const got = read("api-types.gen.ts");
  expect(got.slice(got.indexOf("export "))).toBe(want.slice(want.indexOf("export ")));
}, 60_000);
