// Prints one closing line for a CI run from the JSON reports of Vitest and Playwright:
// "tests: N passed, N failed, N skipped". Exits non-zero when a report is missing or counts a failure.
import fs from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
let ok = true;
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.error(`missing test report: ${file}`);
    ok = false;
    continue;
  }
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (report.stats && 'expected' in report.stats) {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
  } else {
    // Vitest
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    if (report.numFailedTestSuites > 0 && report.numFailedTests === 0) failed += report.numFailedTestSuites;
  }
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(ok && failed === 0 && passed > 0 ? 0 : 1);
