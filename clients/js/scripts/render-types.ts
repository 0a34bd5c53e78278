// Renders TypeScript types from the server's OpenAPI document with openapi-typescript. Shared by
// the generate script and the test that fails when the committed types are stale.
import openapiTS, { astToString } from 'openapi-typescript';

export const GENERATED_TYPES_FILE = new URL('../src/openapi.ts', import.meta.url);

const HEADER = `// Generated from the server's OpenAPI document by \`npm run client:generate\`. Do not edit:
// change the route schemas and regenerate.
/* eslint-disable */
`;

export async function renderOpenApiTypes(document: unknown): Promise<string> {
  // The document is built in memory; openapi-typescript accepts the object as it is.
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: false });
  return HEADER + astToString(ast);
}
