// Streams Bolagsverket's bulk text file (bolagsverket_bulkfil.txt) as Nordic records.
// Policy (README.md): a wrong header aborts; a malformed row is counted and skipped (first reasons
// kept) unless there are more than `maxRejected`; sole traders identified by a personnummer are
// skipped and counted, never emitted; rows sharing an org number collapse to one (the row without
// namnskyddslöpnummer wins).
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { fromRoot } from '../../project-root.ts';
import { RejectLog, type NordicCompanyRecord } from '../nordic-record.ts';
import { splitBolagsverketLine } from './fields.ts';
import { readLinesLf, type NumberedLine } from './lines.ts';
import { BOLAGSVERKET_COLUMNS, mapBolagsverketFields } from './map-row.ts';
import { OrgNumberSet } from './org-number-set.ts';

export interface BolagsverketStats {
  /** Data lines read (header excluded; a record spanning lines counts once). */
  lines: number;
  emitted: number;
  /** Sole traders and estates identified by a person's number: not stored (privacy). */
  skippedPersons: number;
  /** Identity types we do not know; counted per type. */
  skippedOtherIdentity: Record<string, number>;
  /** Rows dropped because another row with the same org number was kept. */
  duplicates: number;
  /** Org numbers emitted a second time because a row without namnskyddslöpnummer came later. */
  superseded: number;
  rejects: RejectLog;
}

export function newBolagsverketStats(maxRejected = 10_000): BolagsverketStats {
  return {
    lines: 0,
    emitted: 0,
    skippedPersons: 0,
    skippedOtherIdentity: {},
    duplicates: 0,
    superseded: 0,
    rejects: new RejectLog('Bolagsverket bulkfil', maxRejected),
  };
}

export interface BolagsverketParseOptions {
  stats?: BolagsverketStats;
  /** The file is UTF-8 (FORMATS.md §7.2); one third party reports Latin-1, hence the switch. */
  encoding?: 'utf-8' | 'latin1';
  /** Code → description; defaults to reference/org-forms-se.csv. */
  orgFormLabels?: ReadonlyMap<string, string>;
}

let defaultLabels: Map<string, string> | null = null;

/** Swedish organisation-form labels from reference/org-forms-se.csv (read once). */
export function swedishOrgFormLabels(): ReadonlyMap<string, string> {
  if (!defaultLabels) {
    const file = fromRoot('reference', 'org-forms-se.csv');
    const rows = parse(readFileSync(file, 'utf8'), {
      columns: true,
      bom: true,
      skip_empty_lines: true,
      trim: true,
    }) as {
      kode: string;
      beskrivelse: string;
    }[];
    defaultLabels = new Map(rows.map((r) => [r.kode, r.beskrivelse]));
  }
  return defaultLabels;
}

/** A record may contain a line break inside a quoted value; give up joining after this many lines. */
const MAX_LINES_PER_RECORD = 5;

function unquote(field: string): string {
  return field.length >= 2 && field.startsWith('"') && field.endsWith('"')
    ? field.slice(1, -1).replaceAll('""', '"')
    : field;
}

function splitRecordFields(text: string): { fields: string[]; open: boolean } {
  const split = splitBolagsverketLine(text);
  if (!split.open && split.fields.length !== BOLAGSVERKET_COLUMNS.length) {
    // A value that merely starts with a quote in an unquoted file: a plain split may still fit.
    const plain = text.split(';');
    if (plain.length === BOLAGSVERKET_COLUMNS.length) return { fields: plain.map(unquote), open: false };
  }
  return split;
}

interface Candidate {
  record: NordicCompanyRecord;
  seq: number | null;
}

/** `a` is preferred over `b` for the same org number: no löpnummer first, then the lowest. */
const better = (a: Candidate, b: Candidate) => (a.seq === null ? b.seq !== null : b.seq !== null && a.seq < b.seq);

export async function* parseBolagsverketText(
  input: Readable,
  options: BolagsverketParseOptions = {},
): AsyncGenerator<NordicCompanyRecord> {
  const stats = options.stats ?? newBolagsverketStats();
  const labels = options.orgFormLabels ?? swedishOrgFormLabels();
  const seen = new OrgNumberSet();
  const lines = readLinesLf(input, options.encoding);
  const iterator = lines[Symbol.asyncIterator]();
  let held: NumberedLine | null = null;
  const nextLine = async (): Promise<NumberedLine | null> => {
    if (held) {
      const h = held;
      held = null;
      return h;
    }
    const r = await iterator.next();
    return r.done ? null : r.value;
  };

  try {
    const header = await nextLine();
    if (!header) throw new Error('Bolagsverket bulkfil: empty file (no header line)');
    const names = splitBolagsverketLine(header.text.replace(/^\uFEFF/, '')).fields.map((f) => f.trim());
    if (names.join(';') !== BOLAGSVERKET_COLUMNS.join(';')) {
      throw new Error(
        `Bolagsverket bulkfil line 1: unexpected header ${JSON.stringify(header.text.slice(0, 300))}; expected ${BOLAGSVERKET_COLUMNS.join(';')}`,
      );
    }

    // Rows of one org number are normally adjacent; the best of the current run waits here.
    let pendingRun: Candidate | null = null;
    const flush = function* (c: Candidate): Generator<NordicCompanyRecord> {
      const key = Number(c.record.orgNumber);
      const state = seen.get(key);
      if (state === 'absent' || (state === 'numbered' && c.seq === null)) {
        if (state !== 'absent') stats.superseded++;
        seen.set(key, c.seq === null ? 'plain' : 'numbered');
        stats.emitted++;
        yield c.record;
      } else {
        stats.duplicates++;
      }
    };

    for (;;) {
      const first = await nextLine();
      if (!first) break;
      if (first.text.trim() === '') continue;
      stats.lines++;
      let text = first.text;
      let split = splitRecordFields(text);
      for (
        let joined = 1;
        split.open && joined < MAX_LINES_PER_RECORD && split.fields.length <= BOLAGSVERKET_COLUMNS.length;
        joined++
      ) {
        const more = await nextLine();
        if (!more) break;
        const candidate = splitRecordFields(`${text}\n${more.text}`);
        if (candidate.fields.length > BOLAGSVERKET_COLUMNS.length) {
          held = more; // joining made it worse: the next line is a record of its own
          break;
        }
        text = `${text}\n${more.text}`;
        split = candidate;
      }
      const where = `line ${first.line}`;
      if (split.open) {
        stats.rejects.add(where, 'unterminated quoted field');
        continue;
      }
      let result;
      try {
        result = mapBolagsverketFields(split.fields, labels);
      } catch (err) {
        stats.rejects.add(where, (err as Error).message);
        continue;
      }
      if (result.kind === 'person') {
        stats.skippedPersons++;
        continue;
      }
      if (result.kind === 'other-identity') {
        stats.skippedOtherIdentity[result.type] = (stats.skippedOtherIdentity[result.type] ?? 0) + 1;
        continue;
      }
      const candidate: Candidate = { record: result.record, seq: result.namnskyddslopnummer };
      if (pendingRun && pendingRun.record.orgNumber === candidate.record.orgNumber) {
        stats.duplicates++;
        if (better(candidate, pendingRun)) pendingRun = candidate;
        continue;
      }
      if (pendingRun) yield* flush(pendingRun);
      pendingRun = candidate;
    }
    if (pendingRun) yield* flush(pendingRun);
  } finally {
    await iterator.return?.(undefined);
  }
}
