// Rules about the repository's own words, checked in npm test's lint step:
// - ARCHITECTURE.md stays a one-page map: at most 80 lines of at most 100 characters (the detail
//   belongs in docs/);
// - the repository stands on its own: no tracked file points at the design notes, the contract's
//   source files or the issue tracker outside it (docs/spec restates the contract; a comment says
//   what a rule or target is, not where it was asked for).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const problems = [];

const map = readFileSync('ARCHITECTURE.md', 'utf8').replace(/\n$/, '').split('\n');
if (map.length > 80) problems.push(`ARCHITECTURE.md has ${map.length} lines (at most 80)`);
map.forEach((line, index) => {
  if (line.length > 100) problems.push(`ARCHITECTURE.md:${index + 1} is ${line.length} characters`);
});

const OUTSIDE = /DESIGN\.md|\.\.\/shared\/|api-spec\.md|product-spec\.md|\bissue \d+/i;
// Figures measured under earlier tasks keep their labels; lockfiles and this rule are not prose.
const EXEMPT = /^bench\/results\/|(^|\/)pnpm-lock\.yaml$|\.lock$|^scripts\/check-docs\.mjs$/;
const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
  .split('\0')
  .filter(
    (file) =>
      file &&
      !EXEMPT.test(file) &&
      /\.(ts|tsx|mjs|cjs|js|py|sh|md|ya?ml|css|html|toml)$/.test(file),
  );
for (const file of files) {
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const found = OUTSIDE.exec(line);
      if (found) problems.push(`${file}:${index + 1} names "${found[0]}" outside the repository`);
    });
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(
  `docs: ARCHITECTURE.md ${map.length} lines; ${files.length} files name nothing outside`,
);
