// OpenSanctions `targets.simple.csv` (FORMATS.md §8.1): comma separated, quoted, multi-values
// joined with ';', countries ISO-2 lower case. Older files lack `program_ids`, so columns are
// found by header name. `identifiers`, `addresses`, `phones` and `emails` are not read: the
// service keeps no personal identifiers.
import type { Readable } from 'node:stream';
import type { SanctionEntity } from '../../domain/screening/types.ts';
import { readCsvRecords } from '../text-lines.ts';
import { iso2, isScreenedSchema, partialBirthDate, SanctionsParseError, splitNames, uniqueStrings } from './common.ts';

export interface TargetsCsvOptions {
  fileName?: string;
  /**
   * Topics of the dataset the file came from (e.g. ['role.pep'] for `peps`, ['sanction'] for
   * `sanctions`). The CSV has no topics column: without this, a row gets 'sanction' when its
   * `sanctions` column is filled, or 'role.pep' when its dataset title says PEP, else none.
   */
  topics?: string[];
}

const REQUIRED = ['id', 'schema', 'name'] as const;
const PEP_TITLE = /\bpeps?\b|politically exposed/i;

const multi = (v: string | undefined) =>
  (v ?? '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

function topicsOf(row: (col: string) => string | undefined, datasets: string[], fixed: string[] | undefined): string[] {
  const topics = [...(fixed ?? [])];
  if ((row('sanctions') ?? '').trim() !== '') topics.push('sanction');
  if (!fixed && datasets.some((d) => PEP_TITLE.test(d))) topics.push('role.pep');
  return uniqueStrings(topics);
}

/** Streams the screened targets of a `targets.simple.csv` file. */
export async function* parseTargetsSimpleCsv(
  input: Readable,
  options: TargetsCsvOptions = {},
): AsyncGenerator<SanctionEntity> {
  const fileName = options.fileName ?? 'targets.simple.csv';
  let columns: Map<string, number> | null = null;
  for await (const { line, fields } of readCsvRecords(input, ',')) {
    const where = `${fileName} line ${line}`;
    if (!columns) {
      columns = new Map(fields.map((f, i) => [f.trim().toLowerCase(), i]));
      const missing = REQUIRED.filter((c) => !columns!.has(c));
      if (missing.length > 0) throw new SanctionsParseError(where, `header lacks column(s) ${missing.join(', ')}`);
      continue;
    }
    if (fields.length !== columns.size) {
      throw new SanctionsParseError(where, `expected ${columns.size} fields, found ${fields.length}`);
    }
    const cols = columns;
    const get = (col: string) => {
      const i = cols.get(col);
      return i === undefined ? undefined : fields[i];
    };
    const id = (get('id') ?? '').trim();
    const schema = (get('schema') ?? '').trim();
    const name = (get('name') ?? '').replace(/\s+/g, ' ').trim();
    if (!id) throw new SanctionsParseError(where, 'empty id');
    if (!isScreenedSchema(schema) || !name) continue; // vessels, aircraft …; unnamed rows
    const datasets = multi(get('dataset'));
    const entity: SanctionEntity = {
      id,
      schema,
      name,
      ...splitNames(name, multi(get('aliases')), []),
      birthDates: uniqueStrings(multi(get('birth_date')).map(partialBirthDate)),
      countries: uniqueStrings(multi(get('countries')).map(iso2)),
      topics: topicsOf(get, datasets, options.topics),
      datasets,
    };
    const firstSeen = get('first_seen')?.trim();
    const lastSeen = get('last_seen')?.trim();
    const lastChange = get('last_change')?.trim();
    if (firstSeen) entity.firstSeen = firstSeen;
    if (lastSeen) entity.lastSeen = lastSeen;
    if (lastChange) entity.lastChange = lastChange;
    yield entity;
  }
  if (!columns) throw new SanctionsParseError(fileName, 'empty file (no header)');
}
