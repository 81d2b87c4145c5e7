// Copy-paste detection (jscpd, pinned in the workspace catalogue) over the sources that ship: the
// apps', the packages' and the engine's, without tests, fixtures, migrations or generated files.
// Fails when the clone count rises above the committed baseline (scripts/copies-baseline.json).
// A new clone is folded into one shared piece; the baseline only ever goes down.
//   node scripts/check-copies.mjs           check (npm test's lint step)
//   node scripts/check-copies.mjs --list    also print every clone
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// jscpd's ES module build imports a dependency by a path Node cannot resolve; its CommonJS one works.
const { detectClones } = createRequire(import.meta.url)('jscpd');

const SOURCES = [
  'apps/api/src',
  'apps/web/src',
  'apps/worker/src',
  'packages/contracts/src',
  'packages/db/src',
  'packages/observability/src',
  'packages/pricing/src',
  'packages/storage/src',
  'packages/templates/src',
  'apps/worker/engine/studioshot_engine',
];
const NOT_SHIPPED = [
  '**/test/**',
  '**/tests/**',
  '**/*.test.*',
  '**/fixtures/**',
  '**/migrations/**',
  '**/__pycache__/**',
];

const baseline = JSON.parse(
  readFileSync(new URL('./copies-baseline.json', import.meta.url), 'utf8'),
).clones;
const clones = await detectClones({
  path: SOURCES,
  ignore: NOT_SHIPPED,
  minLines: 6,
  minTokens: 50,
  silent: true,
  gitignore: true,
  reporters: [],
});
const where = (part) => `${part.sourceId}:${part.start.line}-${part.end.line}`;
if (process.argv.includes('--list') || clones.length > baseline) {
  for (const clone of clones) {
    console.log(`  ${where(clone.duplicationA)} = ${where(clone.duplicationB)}`);
  }
}
console.log(`copy-paste: ${clones.length} clones (baseline ${baseline})`);
if (clones.length > baseline) {
  console.error('More clones than the baseline: fold the new copy into one shared piece.');
  process.exit(1);
}
