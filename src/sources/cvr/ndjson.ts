// `ncd sync cvr --file X.ndjson`: one Vrvirksomhed document per line (a search hit
// `{"_source":{"Vrvirksomhed":…}}` or the document itself), plain or gzipped. Lines stream; a
// line that is not a usable document is counted and named by its line number, never its text.
import type { Readable } from 'node:stream';
import { RejectLog } from '../nordic-record.ts';
import { readLines } from '../text-lines.ts';
import { mapVirksomhed, type CvrCompany } from './map-company.ts';

export const newCvrRejectLog = () => new RejectLog('CVR');

export async function* parseCvrNdjson(input: Readable, rejects: RejectLog): AsyncGenerator<CvrCompany> {
  for await (const { line, text } of readLines(input)) {
    if (text.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      rejects.add(`line ${line}`, 'not a JSON document');
      continue;
    }
    try {
      yield mapVirksomhed(json);
    } catch (err) {
      rejects.add(`line ${line}`, (err as Error).message);
    }
  }
}
