// The annual report inside the ZIP `dokument/{id}` returns: its XHTML (iXBRL) entries are parsed,
// an audit report beside the annual report is passed over, and a package without an annual
// report is refused with the reason. A K3 group report yields the group's figures (KONSERN).
import { zipEntries, ZipReadError } from '../zip-entries.ts';
import { IxbrlError, NotAnnualReportError, parseSeIxbrl, type SeKeyFigures } from './ixbrl.ts';

const XHTML = /\.(x?html?)$/i;
const MAX_REPORT_BYTES = 50 * 1024 * 1024;

/** The key figures of the annual report(s) in one package; throws IxbrlError with the reason when there is none to read. */
export async function readReportZip(zip: Buffer): Promise<SeKeyFigures[]> {
  const reports: SeKeyFigures[] = [];
  let files = 0;
  try {
    for await (const e of zipEntries(zip, { match: (n) => XHTML.test(n), maxEntryBytes: MAX_REPORT_BYTES })) {
      files++;
      try {
        reports.push(parseSeIxbrl(e.data.toString('utf8')));
      } catch (err) {
        if (err instanceof NotAnnualReportError) continue;
        throw err;
      }
    }
  } catch (err) {
    if (err instanceof ZipReadError) throw new IxbrlError(err.message);
    throw err;
  }
  if (!files) throw new IxbrlError('the ZIP holds no report (no .xhtml file)');
  if (!reports.length) throw new IxbrlError('the ZIP holds no annual report (only other iXBRL documents)');
  return reports;
}
