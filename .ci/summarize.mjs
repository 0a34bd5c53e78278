// Sums vitest JSON reports into the plain line CI reads: "N passed, N failed". Before it, names
// each failure (report, file, test, first line of the message): only the tail of a CI log may be
// on record, and a count alone cannot say which test failed.
import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';

let passed = 0;
let failed = 0;
const failures = [];
const files = process.argv.slice(2);
const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((l) => l.trim()) ?? '';

for (const file of files) {
  const report = basename(file, '.json');
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed +=
      (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0) + (r.success === false && !r.numFailedTests ? 1 : 0);
    if (r.success === false && !r.numFailedTests && !r.testResults?.length)
      failures.push(`${report}: failed (see the log above)`);
    for (const suite of r.testResults ?? []) {
      const where = relative(process.cwd(), suite.name ?? '');
      const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedTests)
        failures.push(`${report}: ${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0]).slice(0, 300)}`);
      if (suite.status === 'failed' && failedTests.length === 0)
        failures.push(`${report}: ${where}: ${firstLine(suite.message).slice(0, 300) || 'suite failed'}`);
    }
  } catch {
    console.error(`missing or unreadable report: ${file}`);
    failures.push(`${report}: missing or unreadable report`);
    failed += 1;
  }
}
if (files.length === 0) failed += 1;
if (failures.length > 0) console.log(['failures:', ...failures.map((f) => `- ${f}`)].join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
