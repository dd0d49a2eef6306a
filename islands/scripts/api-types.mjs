// npm run api-types: api/openapi.json's types for the islands
// (src/lib/api-types.gen.ts, what openapi-fetch's client is typed by), as
// openapi-typescript's command writes them but for a file (format:
// binary), typed as the Blob a form sends rather than a string: the
// Summarizer's upload is then checked like any other body.
import { writeFileSync } from "node:fs";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import ts from "typescript";

const blob = ts.factory.createTypeReferenceNode("Blob");
const ast = await openapiTS(new URL("../../api/openapi.json", import.meta.url), {
  transform: (schema) => (schema.format === "binary" ? blob : undefined),
});
writeFileSync(new URL("../src/lib/api-types.gen.ts", import.meta.url), COMMENT_HEADER + astToString(ast));
