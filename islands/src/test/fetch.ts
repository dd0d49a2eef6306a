// What a stubbed fetch was asked, as the tests name it: the API client
// (openapi-fetch) passes a Request, the pages' own reads (fetchBuilt) a
// path; either is read as its path and query ("/api/circulars?limit=2").
export function pathOf(input: unknown): string {
  const url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
  return url.pathname + url.search;
}

// bodyOf is the JSON body a Request carries.
export async function bodyOf(input: unknown): Promise<unknown> {
  if (!(input instanceof Request)) throw new Error(`not a Request: ${String(input)}`);
  return JSON.parse(await input.text());
}
