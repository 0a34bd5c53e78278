// Sums vitest JSON reports into the plain line CI reads: "N passed, N failed".
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
const files = process.argv.slice(2);
for (const file of files) {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed +=
      (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0) + (r.success === false && !r.numFailedTests ? 1 : 0);
  } catch {
    console.error(`missing or unreadable report: ${file}`);
    failed += 1;
  }
}
if (files.length === 0) failed += 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
