// Streaming parser for Mattilsynet's smilefjes `tilsyn` CSV (FORMATS.md §4): UTF-8 with BOM,
// `;` separated, header row, fields optionally double-quoted with `""` escapes. One row per
// inspection visit; exact duplicate rows occur upstream, so rows are de-duplicated on tilsynid.
import type { Readable } from 'node:stream';
import { isValidNorwegianOrgNumber } from '../../domain/org-number.ts';
import { CsvSyntaxError, readCsvRecords } from '../text-lines.ts';

export const DEFAULT_INSPECTIONS_URL = 'https://data.mattilsynet.no/smilefjes-tilsyn.csv';

interface InspectionTheme {
  number: 1 | 2 | 3 | 4;
  nameNo: string | null;
  nameNn: string | null;
  /** Raw karakter 0–5 (4 = ikke aktuelt, 5 = ikke vurdert); null when blank. */
  grade: number | null;
  /** False only for karakter 4 (ikke aktuelt). */
  applicable: boolean;
  /** True when a real grade 0–3 was given (not blank, 4 or 5). */
  assessed: boolean;
}

export interface InspectionRecord {
  line: number;
  upstreamId: string; // tilsynid
  venueId: string | null; // tilsynsobjektid without the "_Tilsynsobjekt" suffix
  orgNumber: string | null; // only a valid 9-digit value; blank/invalid → null
  name: string;
  address: string | null; // adrlinje1 + ", " + adrlinje2 when present
  postnr: string | null; // 4 digits or null
  poststed: string | null;
  caseRef: string | null; // sakref
  status: string | null;
  date: string; // YYYY-MM-DD
  totalRating: 0 | 1 | 2 | 3;
  inspectionType: 'ordinary' | 'follow-up' | null; // tilsynsbesoektype 0/1
  themes: InspectionTheme[];
}

export interface InspectionParseStats {
  /** Rows yielded. */
  records: number;
  /** Rows dropped because their tilsynid was already seen earlier in the file. */
  duplicatesDropped: number;
}

export class InspectionParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`Mattilsynet tilsyn CSV line ${line}: ${message}`);
    this.name = 'InspectionParseError';
  }
}

export const INSPECTION_COLUMNS = [
  'tilsynsobjektid',
  'orgnummer',
  'navn',
  'adrlinje1',
  'adrlinje2',
  'postnr',
  'poststed',
  'tilsynid',
  'sakref',
  'status',
  'dato',
  'total_karakter',
  'tilsynsbesoektype',
  'tema1_no',
  'tema1_nn',
  'karakter1',
  'tema2_no',
  'tema2_nn',
  'karakter2',
  'tema3_no',
  'tema3_nn',
  'karakter3',
  'tema4_no',
  'tema4_nn',
  'karakter4',
] as const;
type Column = (typeof INSPECTION_COLUMNS)[number];

const NOT_APPLICABLE = 4;
const NOT_ASSESSED = 5;

/** Maps column name → index. Extra columns are ignored (upstream may add some); missing ones are fatal. */
function columnIndex(header: string[]): Record<Column, number> {
  const names = header.map((h) => h.trim().toLowerCase());
  const missing = INSPECTION_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length > 0) {
    throw new InspectionParseError(
      1,
      `header lacks column(s) ${missing.join(', ')}; got "${header.join(';').slice(0, 200)}"`,
    );
  }
  return Object.fromEntries(INSPECTION_COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<Column, number>;
}

const blankToNull = (s: string | undefined) => {
  const t = (s ?? '').trim();
  return t === '' ? null : t;
};

/** DDMMYYYY → YYYY-MM-DD, rejecting impossible dates such as 31022024. */
export function parseInspectionDate(raw: string): string | null {
  const m = /^(\d{2})(\d{2})(\d{4})$/.exec(raw.trim());
  if (!m) return null;
  const [, dd, mm, yyyy] = m;
  const d = new Date(Date.UTC(Number(yyyy), Number(mm) - 1, Number(dd)));
  if (d.getUTCFullYear() !== Number(yyyy) || d.getUTCMonth() !== Number(mm) - 1 || d.getUTCDate() !== Number(dd))
    return null;
  return `${yyyy}-${mm}-${dd}`;
}

function parseGrade(raw: string, line: number, column: string): number | null {
  const s = raw.trim();
  if (s === '') return null;
  if (!/^[0-5]$/.test(s)) throw new InspectionParseError(line, `${column} must be 0–5 or blank, got "${raw}"`);
  return Number(s);
}

/** The worst graded theme (4 and 5 ignored); null when no theme has a real grade. */
function worstGrade(grades: (number | null)[]): 0 | 1 | 2 | 3 | null {
  const real = grades.filter((g): g is number => g !== null && g !== NOT_APPLICABLE && g !== NOT_ASSESSED);
  return real.length === 0 ? null : (Math.max(...real) as 0 | 1 | 2 | 3);
}

function toRecord(f: string[], col: Record<Column, number>, line: number): InspectionRecord {
  const get = (c: Column) => f[col[c]] ?? '';
  const upstreamId = get('tilsynid').trim();
  if (upstreamId === '') throw new InspectionParseError(line, 'tilsynid is blank');
  const name = get('navn').trim();
  if (name === '') throw new InspectionParseError(line, 'navn is blank');

  const date = parseInspectionDate(get('dato'));
  if (date === null) throw new InspectionParseError(line, `dato must be a real date DDMMYYYY, got "${get('dato')}"`);

  const themes: InspectionTheme[] = ([1, 2, 3, 4] as const).map((n) => {
    const grade = parseGrade(get(`karakter${n}`), line, `karakter${n}`);
    return {
      number: n,
      nameNo: blankToNull(get(`tema${n}_no`)),
      nameNn: blankToNull(get(`tema${n}_nn`)),
      grade,
      applicable: grade !== NOT_APPLICABLE,
      assessed: grade !== null && grade <= 3,
    };
  });

  const totalRaw = get('total_karakter').trim();
  let totalRating: 0 | 1 | 2 | 3;
  if (totalRaw === '') {
    const derived = worstGrade(themes.map((t) => t.grade));
    if (derived === null)
      throw new InspectionParseError(line, 'total_karakter is blank and no karakter1–4 is graded 0–3');
    totalRating = derived;
  } else if (/^[0-3]$/.test(totalRaw)) {
    totalRating = Number(totalRaw) as 0 | 1 | 2 | 3;
  } else {
    throw new InspectionParseError(line, `total_karakter must be 0–3 or blank, got "${totalRaw}"`);
  }

  const typeRaw = get('tilsynsbesoektype').trim();
  if (typeRaw !== '' && typeRaw !== '0' && typeRaw !== '1') {
    throw new InspectionParseError(line, `tilsynsbesoektype must be 0, 1 or blank, got "${typeRaw}"`);
  }

  const venueRaw = blankToNull(get('tilsynsobjektid'));
  const org = get('orgnummer').trim();
  const postnr = get('postnr').trim();
  const address = [blankToNull(get('adrlinje1')), blankToNull(get('adrlinje2'))].filter((x) => x !== null).join(', ');

  return {
    line,
    upstreamId,
    venueId: venueRaw === null ? null : venueRaw.replace(/_Tilsynsobjekt$/, '') || null,
    // The column is sometimes blank or junk; keep only real org numbers and never guess.
    orgNumber: isValidNorwegianOrgNumber(org) ? org : null,
    name,
    address: address === '' ? null : address,
    postnr: /^\d{4}$/.test(postnr) ? postnr : null,
    poststed: blankToNull(get('poststed')),
    caseRef: blankToNull(get('sakref')),
    status: blankToNull(get('status')),
    date,
    totalRating,
    inspectionType: typeRaw === '0' ? 'ordinary' : typeRaw === '1' ? 'follow-up' : null,
    themes,
  };
}

/**
 * Streams inspections, first occurrence of each tilsynid only. Malformed rows throw
 * InspectionParseError (a bad date or rating is never dropped silently). The generator's return
 * value, and the optional `stats` object (updated as rows go by), count the duplicates dropped.
 * Memory: one Set entry per distinct tilsynid (tens of thousands), never the rows themselves.
 */
export async function* parseInspectionsCsv(
  input: Readable,
  stats: InspectionParseStats = { records: 0, duplicatesDropped: 0 },
): AsyncGenerator<InspectionRecord, InspectionParseStats> {
  let col: Record<Column, number> | undefined;
  let width = 0;
  const seen = new Set<string>();
  try {
    for await (const { line, fields } of readCsvRecords(input, ';')) {
      if (!col) {
        col = columnIndex(fields);
        width = fields.length;
        continue;
      }
      if (fields.length !== width) {
        throw new InspectionParseError(line, `expected ${width} fields like the header, got ${fields.length}`);
      }
      const record = toRecord(fields, col, line);
      if (seen.has(record.upstreamId)) {
        stats.duplicatesDropped++;
        continue;
      }
      seen.add(record.upstreamId);
      stats.records++;
      yield record;
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new InspectionParseError(err.line, err.detail);
    throw err;
  }
  if (!col) throw new InspectionParseError(1, 'file is empty (no header line)');
  return stats;
}
