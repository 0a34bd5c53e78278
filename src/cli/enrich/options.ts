// Options of `ncd enrich`. The API key comes from --key or NCD_API_KEY and is never printed.
import path from 'node:path';
import { UsageError } from '../../ops/usage-error.ts';
import { readArgs, text } from '../args.ts';
import { COUNTRIES, type Country } from '../../domain/org-number.ts';
import type { CsvFormat } from './csv-output.ts';
import { DEFAULT_FIELDS, resolveFields, type FieldSpec } from './fields.ts';

export const ENRICH_USAGE = `Usage: ncd enrich <input.csv> --column <name> --out <output.csv> [options]
       ncd enrich <input.csv> --match-names --name-column <name> --out <output.csv> [options]

Adds company data to every row of a CSV file, using the API of a running server.

  --column NAME     column holding organisation numbers (required without --match-names)
  --match-names     find the organisation number of rows without one (all rows when there is
                    no --column) from the company name; adds match, matchCountry, matchScore and
                    matchStatus (matched | ambiguous | none | not_attempted), then enriches the matched rows
  --name-column NAME  column holding company names (with --match-names)
  --city-column NAME  column holding the city or municipality (optional, with --match-names)
  --out FILE        where to write the enriched CSV (required; must not exist unless --resume)
  --fields LIST     comma-separated fields to add (default: ${DEFAULT_FIELDS.join(',')})
  --url URL         server base URL (default: $NCD_URL or http://localhost:3000)
  --key KEY         API key (default: $NCD_API_KEY; prefer the variable, arguments show in ps)
  --country CC      NO, FI, SE or DK: the registry of the numbers (default NO); with
                    --match-names also the only registry names are matched in (default: all)
  --excel           write for Excel: UTF-8 with a byte order mark, ";" between fields, CRLF
                    line ends (Nordic Excel opens it with the columns split and Æ/Ø/Å intact)
  --delimiter D     the output's delimiter: one character, or "tab" (default: the input's)
  --resume          continue an interrupted run: rows already in --out are skipped

By default the output keeps the input's delimiter, byte order mark and line endings. Rows whose
number cell is blank are marked empty; numbers that cannot be one (check digit) invalid.
  --list-fields     print the available fields and exit`;

interface MatchNamesOptions {
  nameColumn: string;
  cityColumn?: string;
  /** Only candidates of this country; all countries when not given. */
  country?: Country;
}

export interface EnrichOptions {
  input: string;
  /** The org-number column; optional with --match-names (every row is then matched). */
  column?: string;
  /** --match-names: numbers for rows without one, from their name. */
  match?: MatchNamesOptions;
  out: string;
  fields: FieldSpec[];
  url: string;
  apiKey: string;
  country: Country;
  resume: boolean;
  /** Output format overrides; unset fields follow the input. */
  output: Partial<CsvFormat>;
}

const value = { type: 'string' } as const;
const OPTIONS = {
  column: value,
  out: value,
  fields: value,
  url: value,
  key: value,
  country: value,
  resume: { type: 'boolean' },
  'match-names': { type: 'boolean' },
  'name-column': value,
  'city-column': value,
  excel: { type: 'boolean' },
  delimiter: value,
} as const;

/** `--excel` and `--delimiter` as format overrides. */
function outputFormat(values: Record<string, string | boolean | undefined>): Partial<CsvFormat> {
  const format: Partial<CsvFormat> =
    values.excel === true ? { bom: true, delimiter: ';', recordDelimiter: '\r\n' } : {};
  const given = text(values, 'delimiter');
  if (given !== undefined) {
    const delimiter = given === 'tab' || given === '\\t' ? '\t' : given;
    if ([...delimiter].length !== 1 || /["\r\n]/.test(delimiter))
      throw new UsageError(`--delimiter must be one character (or "tab"), not a quote or line break; got "${given}"`);
    format.delimiter = delimiter;
  }
  return format;
}

export function parseEnrichArgs(argv: string[], env: NodeJS.ProcessEnv): EnrichOptions | 'list-fields' | 'help' {
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  if (argv.includes('--list-fields')) return 'list-fields';
  const { positionals, values } = readArgs(argv, OPTIONS);
  const options = {
    column: text(values, 'column'),
    out: text(values, 'out'),
    fields: text(values, 'fields'),
    url: text(values, 'url'),
    key: text(values, 'key'),
    country: text(values, 'country'),
    nameColumn: text(values, 'name-column'),
    cityColumn: text(values, 'city-column'),
  };
  const matchNames = values['match-names'] === true;
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length
        ? `Expected one input file, got ${positionals.length}: ${positionals.join(' ')}`
        : 'Missing the input CSV file',
    );
  if (!options.column && !matchNames)
    throw new UsageError('Missing --column: the name of the column holding organisation numbers');
  if (matchNames && !options.nameColumn)
    throw new UsageError('Missing --name-column: the name of the column holding company names (--match-names)');
  if (!matchNames && (options.nameColumn || options.cityColumn))
    throw new UsageError('--name-column and --city-column need --match-names');
  if (!options.out) throw new UsageError('Missing --out: where to write the enriched CSV');
  const apiKey = options.key ?? env.NCD_API_KEY;
  if (!apiKey) throw new UsageError('No API key: set NCD_API_KEY (or pass --key)');
  const url = options.url ?? env.NCD_URL ?? 'http://localhost:3000';
  if (!/^https?:\/\/[^/]/i.test(url)) throw new UsageError(`--url must be an http(s) URL, got "${url}"`);
  const country = (options.country ?? 'NO').toUpperCase() as Country;
  if (!COUNTRIES.includes(country)) throw new UsageError(`--country must be one of ${COUNTRIES.join(', ')}`);
  const input = path.resolve(positionals[0]);
  const out = path.resolve(options.out);
  if (input === out) throw new UsageError('--out must not be the input file');
  return {
    input,
    column: options.column,
    match: matchNames
      ? {
          nameColumn: options.nameColumn!,
          cityColumn: options.cityColumn,
          country: options.country ? country : undefined,
        }
      : undefined,
    out,
    fields: resolveFields(options.fields ?? DEFAULT_FIELDS.join(',')),
    url,
    apiKey,
    country,
    resume: values.resume === true,
    output: outputFormat(values),
  };
}
