// OpenSanctions FollowTheMoney exports (FORMATS.md §8.1): `entities.ftm.json` (NDJSON, one
// entity per line) and daily `entities.delta.json` ({"op":"ADD"|"MOD"|"DEL","entity":{…}}).
// Only target entities of the four screened schemata are kept; the rest (Address, Sanction,
// Ownership …, target:false) are support objects, and Vessel/Airplane/… targets cannot be a
// director or shareholder.
import type { Readable } from 'node:stream';
import type { SanctionEntity } from '../../domain/screening/types.ts';
import { readLines } from '../text-lines.ts';
import { iso2, isScreenedSchema, partialBirthDate, SanctionsParseError, splitNames, uniqueStrings } from './common.ts';

type Properties = Record<string, string[]>;

interface FtmEntity {
  id: string;
  schema: string;
  caption?: string;
  properties: Properties;
  datasets?: string[];
  first_seen?: string;
  last_seen?: string;
  last_change?: string;
  target?: boolean;
}

export type FtmDeltaRecord =
  { op: 'ADD' | 'MOD'; id: string; entity: SanctionEntity } | { op: 'DEL'; id: string; entity?: undefined };

const COUNTRY_PROPS = ['nationality', 'citizenship', 'country', 'jurisdiction'];

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SanctionsParseError(where, `invalid JSON (${(err as Error).message})`);
  }
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function checkEntity(raw: unknown, where: string): FtmEntity {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new SanctionsParseError(where, 'entity is not an object');
  const e = raw as Record<string, unknown>;
  if (typeof e.id !== 'string' || e.id === '') throw new SanctionsParseError(where, 'entity has no "id"');
  if (typeof e.schema !== 'string' || e.schema === '')
    throw new SanctionsParseError(where, `entity ${e.id} has no "schema"`);
  const props = e.properties ?? {};
  if (typeof props !== 'object' || props === null || Array.isArray(props)) {
    throw new SanctionsParseError(where, `entity ${e.id}: "properties" is not an object`);
  }
  for (const [key, value] of Object.entries(props)) {
    if (!isStringList(value))
      throw new SanctionsParseError(where, `entity ${e.id}: property "${key}" is not a list of strings`);
  }
  if (e.datasets !== undefined && !isStringList(e.datasets)) {
    throw new SanctionsParseError(where, `entity ${e.id}: "datasets" is not a list of strings`);
  }
  return { ...(e as unknown as FtmEntity), properties: props as Properties };
}

/** The screening view of an FtM entity, or null when it is not a screened target. */
export function fromFtm(e: FtmEntity): SanctionEntity | null {
  if (e.target !== true || !isScreenedSchema(e.schema)) return null;
  const p = e.properties;
  const names = uniqueStrings(p.name ?? []);
  const name = (e.caption ?? '').trim() || names[0];
  if (!name) return null; // an unnamed target cannot be screened by name
  const { aliases, weakAliases } = splitNames(
    name,
    [...names, ...(p.alias ?? []), ...(p.previousName ?? [])],
    p.weakAlias ?? [],
  );
  const entity: SanctionEntity = {
    id: e.id,
    schema: e.schema,
    name,
    aliases,
    weakAliases,
    birthDates: uniqueStrings((p.birthDate ?? []).map(partialBirthDate)),
    countries: uniqueStrings(COUNTRY_PROPS.flatMap((k) => (p[k] ?? []).map(iso2))),
    topics: uniqueStrings(p.topics ?? []),
    datasets: uniqueStrings(e.datasets ?? []),
  };
  if (e.first_seen) entity.firstSeen = e.first_seen;
  if (e.last_seen) entity.lastSeen = e.last_seen;
  if (e.last_change) entity.lastChange = e.last_change;
  return entity;
}

/** Streams the screened targets of an `entities.ftm.json` file. */
export async function* parseFtmEntities(
  input: Readable,
  fileName = 'entities.ftm.json',
): AsyncGenerator<SanctionEntity> {
  for await (const { line, text } of readLines(input)) {
    if (text.trim() === '') continue;
    const where = `${fileName} line ${line}`;
    const entity = fromFtm(checkEntity(parseJson(text, where), where));
    if (entity) yield entity;
  }
}

/**
 * Streams an `entities.delta.json` file. ADD and MOD of an entity that is not (or no longer)
 * a screened target come out as DEL: a store applying the delta must then drop it, and a DEL
 * of an id it never had is a no-op. DEL may carry only `{"id": …}`.
 */
export async function* parseFtmDelta(
  input: Readable,
  fileName = 'entities.delta.json',
): AsyncGenerator<FtmDeltaRecord> {
  for await (const { line, text } of readLines(input)) {
    if (text.trim() === '') continue;
    const where = `${fileName} line ${line}`;
    const raw = parseJson(text, where);
    if (typeof raw !== 'object' || raw === null) throw new SanctionsParseError(where, 'delta record is not an object');
    const { op, entity } = raw as { op?: unknown; entity?: unknown };
    if (op !== 'ADD' && op !== 'MOD' && op !== 'DEL')
      throw new SanctionsParseError(where, `unknown op ${JSON.stringify(op)} (expected ADD, MOD or DEL)`);
    if (op === 'DEL') {
      const id = (entity as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string' || id === '') throw new SanctionsParseError(where, 'DEL without entity id');
      yield { op, id };
      continue;
    }
    const checked = checkEntity(entity, where);
    const mapped = fromFtm(checked);
    yield mapped ? { op, id: checked.id, entity: mapped } : { op: 'DEL', id: checked.id };
  }
}
