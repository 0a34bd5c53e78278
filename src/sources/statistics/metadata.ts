// A table's own metadata, read before its data query, and the query built from it. The bureaus
// rename variables (Statistics Finland on 8 June 2026: `Alue` became `alue_23_20260101`, `Vuosi`
// `timeperiod_y`, `Tiedot` `contentscode`), so a definition names a variable by its role (area,
// industry, contents, time) and the bureau's code pattern for that role, and names exact codes
// only for the values it wants. Whatever no longer fits (a variable or value gone, a variable the
// bureau will not eliminate and the definition does not choose, a changed unit) is a problem
// reported per table; the sync then keeps that table's previous figures.
//
// Formats read:
// - PxWeb v1 (SSB v0, SCB, StatFin), `GET` of the table URL:
//   `{"title", "variables": [{"code", "text", "values": [], "valueTexts": [], "elimination"?, "time"?}]}`
//   (`elimination` and `time` are present only when true);
// - StatBank `tableinfo/{table}?format=JSON`:
//   `{"id", "text", "unit", "updated", "variables": [{"id", "text", "elimination", "time", "values": [{"id", "text"}]}]}`.

export class MetadataError extends Error {}

export interface MetaVariable {
  code: string;
  text: string;
  values: string[];
  elimination: boolean;
  time: boolean;
}

export interface TableMeta {
  title: string | null;
  unit: string | null;
  updated: string | null;
  variables: MetaVariable[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const strOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

function variablesOf(doc: unknown, what: string): unknown[] {
  if (!isObj(doc) || !Array.isArray(doc.variables) || doc.variables.length === 0)
    throw new MetadataError(`${what} metadata has no variables`);
  return doc.variables;
}

/** PxWeb's table metadata (the answer to a GET of the table URL). */
export function readPxMetadata(doc: unknown): TableMeta {
  const variables = variablesOf(doc, 'PxWeb').map((v, i) => {
    if (!isObj(v) || typeof v.code !== 'string' || !Array.isArray(v.values))
      throw new MetadataError(`PxWeb metadata: variable ${i} has no code or values`);
    return {
      code: v.code,
      text: strOrNull(v.text) ?? v.code,
      values: v.values.map(String),
      elimination: v.elimination === true,
      time: v.time === true,
    };
  });
  const d = doc as Obj;
  return { title: strOrNull(d.title), unit: null, updated: strOrNull(d.updated), variables };
}

/** StatBank's `tableinfo` answer. */
export function readTableinfo(doc: unknown): TableMeta {
  const variables = variablesOf(doc, 'StatBank').map((v, i) => {
    if (!isObj(v) || typeof v.id !== 'string' || !Array.isArray(v.values))
      throw new MetadataError(`StatBank tableinfo: variable ${i} has no id or values`);
    return {
      code: v.id,
      text: strOrNull(v.text) ?? v.id,
      values: v.values.map((x) => (isObj(x) ? String(x.id) : String(x))),
      elimination: v.elimination === true,
      time: v.time === true,
    };
  });
  const d = doc as Obj;
  return { title: strOrNull(d.text), unit: strOrNull(d.unit), updated: strOrNull(d.updated), variables };
}

export type Role = 'area' | 'industry' | 'contents';

/** How a bureau codes the variable of each role (the time variable is the one flagged `time`). */
export type RolePatterns = Record<Role, RegExp>;

/** One variable a definition asks for. */
export interface Wanted {
  /** Found by role (and the bureau's pattern for it), by `time: true`, or by its exact code. */
  find: Role | 'time' | { code: string };
  /** `all` of its values, the `latest` period, or these codes (each must exist). */
  values: 'all' | 'latest' | string[];
  /** The selected values are added up into one figure (SCB's size classes). */
  sum?: boolean;
  /** A cohort variable (DST's STARTAAR): the figure is the oldest cohort at the latest period. */
  cohort?: boolean;
}

export interface Selection {
  code: string;
  values: 'all' | 'latest' | string[];
  /** How many values the selection holds (for the cell count). */
  count: number;
}

export type Plan =
  | { ok: true; keyDim: string; timeDim: string; selections: Selection[]; sumDims: string[]; cohortDim?: string }
  | { ok: false; problems: string[] };

const describeFind = (f: Wanted['find']) => (typeof f === 'string' ? `the ${f} variable` : `variable ${f.code}`);

/**
 * The selections of one table's query, from its metadata: each wanted variable found and each
 * wanted value checked; every variable the bureau cannot eliminate listed (its only value when it
 * has one). `key` is the role whose values become the figures' keys.
 */
export function planQuery(meta: TableMeta, wanted: Wanted[], roles: RolePatterns, key: Role, unit?: string): Plan {
  const problems: string[] = [];
  const codes = meta.variables.map((v) => v.code).join(', ');
  const found = (f: Wanted['find']): MetaVariable[] =>
    f === 'time'
      ? meta.variables.filter((v) => v.time)
      : typeof f === 'string'
        ? meta.variables.filter((v) => roles[f].test(v.code))
        : meta.variables.filter((v) => v.code === f.code);
  const selections: Selection[] = [];
  const sumDims: string[] = [];
  let cohortDim: string | undefined;
  let keyDim: string | null = null;
  let timeDim: string | null = null;
  for (const w of wanted) {
    const hits = found(w.find);
    if (hits.length !== 1) {
      problems.push(
        hits.length === 0
          ? `${describeFind(w.find)} is missing (variables: ${codes})`
          : `${describeFind(w.find)} is ambiguous (${hits.map((h) => h.code).join(', ')})`,
      );
      continue;
    }
    const v = hits[0];
    if (Array.isArray(w.values)) {
      const missing = w.values.filter((x) => !v.values.includes(x));
      if (missing.length) problems.push(`${v.code} has no value ${missing.join(', ')}`);
    }
    if (w.find === key) keyDim = v.code;
    if (w.sum) sumDims.push(v.code);
    if (w.cohort) cohortDim = v.code;
    if (w.find === 'time' || v.time) timeDim = v.code;
    const count = w.values === 'all' ? v.values.length : w.values === 'latest' ? 1 : w.values.length;
    selections.push({ code: v.code, values: w.values, count });
  }
  for (const v of meta.variables) {
    if (v.elimination || selections.some((s) => s.code === v.code)) continue;
    if (v.time) {
      timeDim ??= v.code;
      selections.push({ code: v.code, values: 'latest', count: 1 });
    } else if (v.values.length === 1) selections.push({ code: v.code, values: [v.values[0]], count: 1 });
    else
      problems.push(
        `${v.code} cannot be eliminated and the definition chooses none of its ${v.values.length} values ` +
          `(${v.values.slice(0, 12).join(', ')}${v.values.length > 12 ? ', …' : ''})`,
      );
  }
  if (keyDim === null && !problems.length) problems.push(`the definition asks for no ${key} variable`);
  if (timeDim === null && !problems.length) problems.push(`no variable is flagged as time (variables: ${codes})`);
  if (unit !== undefined && meta.unit !== null && meta.unit !== unit)
    problems.push(`unit is now "${meta.unit}", was "${unit}"`);
  return problems.length
    ? { ok: false, problems }
    : { ok: true, keyDim: keyDim!, timeDim: timeDim!, selections, sumDims, ...(cohortDim ? { cohortDim } : {}) };
}

const cellsOf = (selections: Selection[]) => selections.reduce((n, s) => n * s.count, 1);

/**
 * The PxWeb queries of a plan, JSON-stat 2.0 answers: one, or several when the cells would exceed
 * the bureau's limit (SSB 800 000, SCB 100 000), split over the key variable's values.
 */
export function pxQueries(plan: Extract<Plan, { ok: true }>, meta: TableMeta, cellLimit: number): unknown[] {
  const body = (selections: Selection[]) => ({
    query: selections.map((s) => ({
      code: s.code,
      selection:
        s.values === 'all'
          ? { filter: 'all', values: ['*'] }
          : s.values === 'latest'
            ? { filter: 'top', values: ['1'] }
            : { filter: 'item', values: s.values },
    })),
    response: { format: 'json-stat2' },
  });
  const cells = cellsOf(plan.selections);
  if (cells <= cellLimit) return [body(plan.selections)];
  const keySel = plan.selections.find((s) => s.code === plan.keyDim)!;
  const keyValues =
    keySel.values === 'all' ? meta.variables.find((v) => v.code === plan.keyDim)!.values : (keySel.values as string[]);
  const per = Math.max(1, Math.floor(cellLimit / (cells / keySel.count)));
  const queries: unknown[] = [];
  for (let i = 0; i < keyValues.length; i += per) {
    const part = keyValues.slice(i, i + per);
    queries.push(
      body(plan.selections.map((s) => (s.code === plan.keyDim ? { ...s, values: part, count: part.length } : s))),
    );
  }
  return queries;
}

/** The StatBank data path of a plan; the latest period is what StatBank answers when `Tid` is left out. */
export function statbankPath(table: string, plan: Extract<Plan, { ok: true }>): string {
  const params = plan.selections
    .filter((s) => s.values !== 'latest')
    .map(
      (s) =>
        `${encodeURIComponent(s.code)}=${s.values === 'all' ? '*' : (s.values as string[]).map(encodeURIComponent).join(',')}`,
    );
  return `data/${table}/JSONSTAT?lang=en${params.map((p) => `&${p}`).join('')}`;
}
