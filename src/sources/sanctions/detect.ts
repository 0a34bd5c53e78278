// Tells which sanctions format a file is in from its first bytes (and, as a tie-breaker, its
// name), so `ncd sync sanctions --file X` needs no format flag.
export type SanctionsFormat = 'ftm' | 'ftm-delta' | 'targets-csv' | 'eu-fsf-xml' | 'un-xml';

const FROM_NAME: [RegExp, SanctionsFormat][] = [
  [/delta\.json$/i, 'ftm-delta'],
  [/\.(ftm\.)?json$/i, 'ftm'],
  [/\.csv$/i, 'targets-csv'],
];

/** @param firstBytes the start of the file as text (a few KB is plenty). */
export function detectSanctionsFormat(firstBytes: string, fileName?: string): SanctionsFormat {
  const head = firstBytes.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('<')) {
    if (/<(\w+:)?export\b[^>]*fpi\/fsd\/export/.test(head) || head.includes('http://eu.europa.ec/fpi/fsd/export'))
      return 'eu-fsf-xml';
    if (/<CONSOLIDATED_LIST\b/.test(head)) return 'un-xml';
    throw new Error('unrecognised sanctions XML: neither an EU FSF export nor the UN consolidated list');
  }
  if (head.startsWith('{')) {
    const firstLine = head.split('\n', 1)[0];
    if (
      /^\{\s*"op"\s*:\s*"(ADD|MOD|DEL)"/.test(firstLine) ||
      /"op"\s*:\s*"(ADD|MOD|DEL)"\s*,\s*"entity"\s*:/.test(firstLine)
    )
      return 'ftm-delta';
    if (/"schema"\s*:/.test(firstLine) || /"properties"\s*:/.test(firstLine)) return 'ftm';
  }
  if (/^"?id"?,"?schema"?,"?name"?,/.test(head)) return 'targets-csv';
  for (const [re, format] of FROM_NAME) if (fileName && re.test(fileName)) return format;
  throw new Error(
    `unrecognised sanctions file format${fileName ? ` (${fileName})` : ''}: starts with ${JSON.stringify(head.slice(0, 40))}`,
  );
}
