// Human output of `ncd` on a terminal: a result's list becomes an aligned table, its other fields
// `name: value` lines. Scripts get JSON instead (--json, or stdout not a terminal), unchanged.

type Row = Record<string, unknown>;

const isRecord = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const ISO = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d)(?::\d\d(?:\.\d+)?)?Z$/;

/** One cell: dates shortened to the minute (UTC), nested runs as "status time", objects as k=v. */
export function cell(v: unknown): string {
  if (v === null || v === undefined || v === '') return '-';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') {
    const iso = ISO.exec(v);
    return iso ? `${iso[1]} ${iso[2]}` : v;
  }
  if (typeof v === 'number') return v.toLocaleString('en-US');
  if (Array.isArray(v)) return v.map(cell).join(', ');
  if (isRecord(v)) {
    if (typeof v.status === 'string') {
      const when = v.finishedAt ?? v.startedAt;
      return when ? `${v.status} ${cell(when)}` : v.status;
    }
    return Object.entries(v)
      .map(([k, x]) => `${k}=${cell(x)}`)
      .join(' ');
  }
  return String(v);
}

/** "maxPageSize" -> "max page size": column headings in the user's words. */
const heading = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

export function renderTable(rows: Row[]): string {
  if (rows.length === 0) return '(none)';
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cells = [keys.map(heading), ...rows.map((r) => keys.map((k) => cell(r[k])))];
  const widths = keys.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  const numeric = keys.map(
    (k) => rows.some((r) => typeof r[k] === 'number') && rows.every((r) => typeof r[k] === 'number' || r[k] == null),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const [head, ...body] = cells;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** A result for a person: scalar fields as aligned lines, each list of records as a table. */
export function renderHuman(result: unknown): string {
  if (typeof result === 'string') return result;
  if (Array.isArray(result)) return renderTable(result.filter(isRecord));
  if (!isRecord(result)) return cell(result);
  const scalars: [string, string][] = [];
  const tables: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    if (Array.isArray(value) && value.every(isRecord)) tables.push(`${key}:\n${renderTable(value)}`);
    else if (isRecord(value) && typeof value.status !== 'string' && Object.values(value).some(isRecord))
      tables.push(`${key}:\n${renderHuman(value).replace(/^/gm, '  ')}`);
    else scalars.push([heading(key), cell(value)]);
  }
  const width = Math.max(0, ...scalars.map(([k]) => k.length));
  const lines = scalars.map(([k, v]) => `${`${k}:`.padEnd(width + 1)} ${v}`);
  return [...(lines.length ? [lines.join('\n')] : []), ...tables].join('\n\n');
}
