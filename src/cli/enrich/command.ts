// Entry of `ncd enrich`: a client of a running server's API, so it never opens the store.
// Exit codes: 0 done, 2 done but some rows failed, 1 bad usage/input or stopped early.
import { UsageError } from '../../ops/usage-error.ts';
import { availableFields } from './fields.ts';
import { ENRICH_USAGE, parseEnrichArgs } from './options.ts';
import { runEnrich, type EnrichSummary } from './run.ts';

export async function enrichCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const parsed = parseEnrichArgs(argv, env);
    if (parsed === 'help') {
      console.log(ENRICH_USAGE);
      return 0;
    }
    if (parsed === 'list-fields') {
      console.log(availableFields().join('\n'));
      return 0;
    }
    const summary = await runEnrich(parsed, process.stderr);
    console.log(formatSummary(summary, parsed.out));
    if (summary.stopped) return 1;
    return summary.failed ? 2 : 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(err.message);
      if (/^Missing|^Expected|^Unknown option|needs a value/.test(err.message)) console.error(`\n${ENRICH_USAGE}`);
      return 1;
    }
    throw err;
  }
}

export function formatSummary(s: EnrichSummary, out: string): string {
  const lines = [
    s.stopped ? `Stopped: ${s.stopped}` : `Enriched ${s.total} rows into ${out}`,
    ...(s.resumed ? [`  already done ${s.resumed}`] : []),
    ...(s.matching
      ? [
          `  names matched   ${s.matching.matched}`,
          `  names ambiguous ${s.matching.ambiguous}`,
          `  names no match  ${s.matching.none}`,
          ...(s.matching.not_attempted
            ? [`  names not tried ${s.matching.not_attempted} (left out by the server's work bound)`]
            : []),
        ]
      : []),
    `  found        ${s.found}`,
    `  not found    ${s.notFound}`,
    `  empty        ${s.empty}`,
    `  invalid      ${s.invalid}`,
    `  failed       ${s.failed}${s.unavailable ? ` (${s.unavailable} the registry could not answer)` : ''}`,
  ];
  const left = s.total - s.resumed - s.processed;
  if (s.stopped) lines.push(`${left} rows are not done yet; run the same command with --resume to continue.`);
  else if (s.failed) lines.push('Rows marked failed can be retried by enriching them again into a new file.');
  return lines.join('\n');
}
