// Renders the Kysely row types of the store (src/store/engine/schema.ts and src/store/engine/schema/*.ts) from a
// migrated database with kysely-codegen. `npm run store:generate` writes them; the test
// test/store/schema-generated.test.ts fails when the committed files differ from a fresh render.
// kysely-codegen introspects, types and serialises every table; this file only says what the
// database cannot: which file a table goes in (src/ files stay under 400 lines), the JSON shapes
// the code reads and writes, and that a CHECK (col IN (...)) is a string union.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import {
  PostgresDialect,
  transform,
  TypeScriptSerializer,
  type DatabaseMetadata,
  type ExportStatementNode,
  type IdentifierNode,
  type InterfaceDeclarationNode,
} from 'kysely-codegen';
import { format, resolveConfig } from 'prettier';
import type { Database } from '../src/store/engine/schema.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The entry point every repository imports (`Database` and the `*Table` row types). */
export const SCHEMA_FILE = 'src/store/engine/schema.ts';
/** One generated file per group of tables, plus columns.ts with the shared column types. */
export const SCHEMA_DIR = 'src/store/engine/schema';

/** Which generated file holds a table. A new table must be placed here (rendering throws). */
const GROUPS: Record<string, { about: string; tables: string[] }> = {
  accounts: {
    about: 'API projects, their keys, tiers and usage, OAuth clients and tokens, access requests and push destinations',
    tables: [
      'access_requests',
      'api_keys',
      'crm_writebacks',
      'destinations',
      'evidence_keys',
      'evidence_pack_counts',
      'evidence_packs',
      'oauth_clients',
      'oauth_codes',
      'oauth_grants',
      'oauth_tokens',
      'project_usage',
      'project_usage_daily',
      'projects',
      'rate_windows',
      'screening_audit',
      'tiers',
    ],
  },
  companies: {
    about: 'Companies and their parts (roles, accounts, sub-units), notices and web domains',
    tables: [
      'companies',
      'cvr_owners',
      'company_name_keys',
      'company_names',
      'enrichment',
      'enrichment_domains',
      'financial_filings',
      'financials',
      'procurement_notices',
      'roles',
      'sub_units',
    ],
  },
  registers: {
    about: 'Registers beside the company register: licences, inspections, shareholders, sanctions',
    tables: [
      'inspections',
      'licenses',
      'sanction_delta_ids',
      'sanction_entities',
      'sanction_lists',
      'sanction_names',
      'shareholder_years',
      'shareholdings',
    ],
  },
  statistics: {
    about:
      'Market context from the national statistics bureaus: figures per municipality and industry, and their tables',
    tables: ['statistics_figures', 'statistics_tables'],
  },
  operations: {
    about: 'Sync runs and state, job leases, coverage snapshots and the reference tables',
    tables: [
      'coverage_snapshots',
      'job_leases',
      'live_fetch_misses',
      'ref_counties',
      'ref_files',
      'ref_municipalities',
      'ref_nace',
      'ref_org_forms',
      'ref_postal_codes',
      'schema_migrations',
      'sync_runs',
      'sync_seen',
      'sync_state',
    ],
  },
  events: {
    about: 'The company event log, watchlists and their alert deliveries',
    tables: [
      'company_events',
      'event_seq',
      'screening_states',
      'watchlist_companies',
      'watchlist_deliveries',
      'watchlists',
    ],
  },
};

/**
 * JSON columns as the code uses them: written as JSON text (JSON.stringify), read back parsed.
 * The database knows only `jsonb`; a column left out here is typed as any JSON value.
 */
const JSON_COLUMNS: Record<string, string> = {
  'companies.technologies':
    'ColumnType<{ name: string; category: string; confidence: number }[], string | undefined, string>',
  'companies.sources': 'ColumnType<Record<string, string>, string | undefined, string>',
  'enrichment.candidates': 'ColumnType<unknown[], string | undefined, string>',
  'inspections.themes': 'ColumnType<unknown[], string | undefined, string>',
  'oauth_clients.metadata': 'ColumnType<Record<string, unknown>, string, string>',
  'oauth_clients.redirect_uris': 'ColumnType<string[], string, string>',
  'procurement_notices.lots': 'ColumnType<unknown[], string, string>',
  'procurement_notices.winners': 'ColumnType<unknown[], string, string>',
  'screening_states.matches': 'ColumnType<unknown[], string, string>',
  'sync_state.state': 'ColumnType<Record<string, unknown>, string, string>',
};

/**
 * Row type names other than `<Table>Table`: the web-domain pipeline is "web profile" in the code,
 * while its tables keep the names of 0007_enrichment.sql (an applied migration never changes).
 */
const TYPE_NAMES: Record<string, string> = {
  enrichment: 'WebProfileTable',
  enrichment_domains: 'WebProfileDomainsTable',
};

/**
 * pg type parsers of store/db.ts: int8 and numeric arrive as numbers and DATE as 'YYYY-MM-DD'
 * text on both engines, so the row types say so.
 */
const dialect = new PostgresDialect({ dateParser: 'string', numericParser: 'number' });
const TYPE_MAPPING = { int8: 'number' };

/**
 * kysely-codegen's declarations are CommonJS, so they name kysely's CommonJS `Kysely`: the same
 * class at run time as ours, a different declaration to tsc.
 */
type CodegenDb = Parameters<typeof dialect.introspector.introspect>[0]['db'];

const HEADER = `// Generated by \`npm run store:generate\` (kysely-codegen over the migrated database): do not edit.
// Change a migration, then regenerate; JSON shapes and table groups are set in scripts/store-schema.ts.`;

/** The string values a CHECK constraint allows one text column, from pg_get_constraintdef. */
function checkedValues(definition: string): { column: string; values: string[] } | undefined {
  const m = /^CHECK \(\((\w+) = (ANY \(ARRAY\[.+\]\)|'(?:[^']|'')*'::text)\)\)$/.exec(definition);
  if (!m) return undefined;
  const values = [...m[2].matchAll(/'((?:[^']|'')*)'::text/g)].map((v) => v[1].replaceAll("''", "'"));
  return { column: m[1], values };
}

/** Text columns restricted by CHECK (col IN (...)) become unions of their values. */
async function addCheckedUnions(db: Kysely<Database>, metadata: DatabaseMetadata): Promise<DatabaseMetadata> {
  const checks = await sql<{ table: string; definition: string }>`
    SELECT t.relname AS table, pg_get_constraintdef(c.oid) AS definition
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE c.contype = 'c' AND n.nspname = 'public'
    ORDER BY t.relname, c.conname`.execute(db);
  for (const { table, definition } of checks.rows) {
    const check = checkedValues(definition);
    const column = metadata.tables
      .find((t) => t.name === table)
      ?.columns.find((c) => c.name === check?.column && c.dataType === 'text' && !c.isArray);
    if (check && column) column.enumValues = check.values;
  }
  return metadata;
}

/** Table interfaces are named `<Table>Table` (or as TYPE_NAMES says) and the database `Database`. */
class StoreSerializer extends TypeScriptSerializer {
  /** kysely-codegen's symbol of a table (PascalCase of its name) -> the name of its row type. */
  readonly typeNames = new Map<string, string>();

  serializeIdentifier(node: IdentifierNode): string {
    if (node.isTableIdentifier) return this.typeNames.get(node.name) ?? `${node.name}Table`;
    return node.name === 'DB' ? 'Database' : super.serializeIdentifier(node);
  }
}

function importLines(body: string, available: Map<string, string>): string {
  const byModule = new Map<string, string[]>();
  for (const [name, module] of available) {
    if (!new RegExp(`\\b${name}\\b`).test(body)) continue;
    byModule.set(module, [...(byModule.get(module) ?? []), name]);
  }
  // Packages first, then our own files.
  const order = (module: string) => `${module.startsWith('.') ? 1 : 0}${module}`;
  return [...byModule]
    .sort(([a], [b]) => order(a).localeCompare(order(b)))
    .map(([module, names]) => `import type { ${names.sort().join(', ')} } from '${module}';`)
    .join('\n');
}

async function formatted(file: string, text: string): Promise<string> {
  const filepath = path.join(ROOT, file);
  return format(text, { ...(await resolveConfig(filepath)), filepath });
}

/** Every generated file, keyed by its path from the repository root. */
export async function renderStoreSchema(db: Kysely<Database>): Promise<Map<string, string>> {
  const introspected = await dialect.introspector.introspect({ db: db as unknown as CodegenDb });
  const metadata = await addCheckedUnions(db, introspected);
  const tables = new Set(metadata.tables.map((t) => t.name));
  for (const key of Object.keys(JSON_COLUMNS)) {
    const [table, column] = key.split('.');
    if (!metadata.tables.find((t) => t.name === table)?.columns.some((c) => c.name === column))
      throw new Error(`scripts/store-schema.ts: JSON_COLUMNS names ${key}, which the database does not have`);
  }
  const groupOf = new Map(Object.entries(GROUPS).flatMap(([group, g]) => g.tables.map((t) => [t, group] as const)));
  for (const table of tables)
    if (!groupOf.has(table)) throw new Error(`scripts/store-schema.ts: put table ${table} in one of GROUPS`);
  for (const table of [...groupOf.keys(), ...Object.keys(TYPE_NAMES)])
    if (!tables.has(table))
      throw new Error(`scripts/store-schema.ts: GROUPS or TYPE_NAMES name ${table}, which the database does not have`);

  const nodes = transform({ dialect, metadata, overrides: { columns: JSON_COLUMNS }, typeMapping: TYPE_MAPPING });
  const serializer = new StoreSerializer();
  const exported = nodes.filter((n): n is ExportStatementNode => n.type === 'ExportStatement');
  const interfaces = exported.filter(
    (n): n is ExportStatementNode<InterfaceDeclarationNode> => n.argument.type === 'InterfaceDeclaration',
  );
  const database = interfaces.find((n) => !n.argument.id.isTableIdentifier)!;
  for (const p of database.argument.body.properties)
    if (p.value.type === 'Identifier' && TYPE_NAMES[p.key]) serializer.typeNames.set(p.value.name, TYPE_NAMES[p.key]);
  const tableOfSymbol = new Map(
    database.argument.body.properties.map((p) => [serializer.serializeExpression(p.value), p.key]),
  );

  // Names a generated file may import: codegen's own imports (kysely's ColumnType), the shared
  // column types of columns.ts, and each group's table interfaces (for schema.ts).
  const available = new Map<string, string>();
  for (const n of nodes)
    if (n.type === 'ImportStatement')
      for (const clause of n.imports) available.set(clause.alias ?? clause.name, n.moduleName);
  const definitions = exported.filter((n) => n.argument.type === 'AliasDeclaration');
  const columnsBody = serializer.serializeStatements(definitions);
  const files = new Map<string, string>();
  files.set(`${SCHEMA_DIR}/columns.ts`, `${HEADER}\n${importLines(columnsBody, available)}\n\n${columnsBody}`);
  for (const d of definitions) available.set(d.argument.id.name, './columns.ts');

  const forSchema = new Map<string, string>();
  for (const [group, { about }] of Object.entries(GROUPS)) {
    const members = interfaces.filter(
      (n) =>
        n.argument.id.isTableIdentifier &&
        groupOf.get(tableOfSymbol.get(serializer.serializeIdentifier(n.argument.id))!) === group,
    );
    const body = serializer.serializeStatements(members);
    files.set(`${SCHEMA_DIR}/${group}.ts`, `${HEADER}\n// ${about}.\n${importLines(body, available)}\n\n${body}`);
    for (const m of members) forSchema.set(serializer.serializeIdentifier(m.argument.id), `./schema/${group}.ts`);
  }
  const databaseBody = serializer.serializeStatements([database]);
  const reexports = Object.keys(GROUPS)
    .map((group) => `export type * from './schema/${group}.ts';`)
    .join('\n');
  files.set(SCHEMA_FILE, `${HEADER}\n${importLines(databaseBody, forSchema)}\n${reexports}\n\n${databaseBody}`);

  for (const [file, text] of files) files.set(file, await formatted(file, text));
  return files;
}

/** The generated files now in the work tree (to find one a render no longer produces). */
export function committedSchemaFiles(): string[] {
  const dir = path.join(ROOT, SCHEMA_DIR);
  return [SCHEMA_FILE, ...readdirSync(dir).map((f) => `${SCHEMA_DIR}/${f}`)].sort();
}
