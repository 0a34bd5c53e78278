// Example payloads for the OpenAPI document (/docs). Each is attached to its schema with
// `examples: [...]`, and test/e2e/openapi.test.ts validates every example against the schema it
// sits on, so an example cannot drift from the contract. Company data is Equinor's public
// registry record (the example Orakel's docs use); persons, keys and URLs are invented.
// One file per resource under examples/; this module re-exports them for the schemas and routes.

export { ERROR_EXAMPLE, NEXT_CURSOR_EXAMPLE, pageExample } from './examples/common.ts';
export * from './examples/company.ts';
export * from './examples/keys.ts';
export * from './examples/health.ts';
export * from './examples/municipalities.ts';
export * from './examples/destinations.ts';
export * from './examples/evidence.ts';
export * from './examples/ownership.ts';
export * from './examples/registers.ts';
export * from './examples/web-profile.ts';
