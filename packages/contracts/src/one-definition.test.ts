// One definition per shared name: each is declared in one file of the repository's sources
// (packages/contracts where the apps share it), and a second declaration anywhere fails here.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const THIS_FILE = path.relative(ROOT, fileURLToPath(import.meta.url));

/** Each name, and the one file that declares it. */
const HOMES: Record<string, string> = {
  PlanType: 'packages/contracts/src/auth.ts',
  TaskType: 'packages/contracts/src/training.ts',
  TaskStatus: 'packages/contracts/src/training.ts',
  PHOTO_CHECK_IDS: 'packages/contracts/src/upload.ts',
  PhotoCheckId: 'packages/contracts/src/upload.ts',
  PhotoCheck: 'packages/contracts/src/upload.ts',
  PhotoVerdict: 'packages/contracts/src/upload.ts',
  ProcessedPhoto: 'apps/api/src/services/photo-processing.ts',
  StorageSettings: 'packages/contracts/src/storage-settings.ts',
  isRecord: 'apps/web/src/lib/is-record.ts',
};

/** The storage settings, each declared as a schema field once (STORAGE_SETTINGS). */
const STORAGE_FIELDS = [
  'STORAGE_DRIVER',
  'STORAGE_DIR',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
];

/** An icon component: the web app draws them in components/icons.tsx. */
const ICON = /\bfunction\s+\w+Icon\s*\(/;
/** A retry rule of a query (not `retry: false` or a count): the query client's alone. */
const RETRY_RULE = /\bretry:\s*(\(|function\b|\w+\s*=>)/;

/** A hand-written counting semaphore: bounded concurrency is p-limit's. */
const HAND_MADE_LIMITER = /\bclass\s+\w*(Gate|Semaphore|Limiter)\b/;

interface Source {
  path: string;
  text: string;
}

/** The repository's tracked TypeScript and JavaScript sources, this test left out. */
function trackedSources(): Source[] {
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--', '*.ts', '*.tsx', '*.mts', '*.js', '*.mjs', '*.cjs'],
    { cwd: ROOT, encoding: 'utf8' },
  )
    .split('\0')
    .filter((file) => file && file !== THIS_FILE);
  return files.map((file) => ({ path: file, text: readFileSync(path.join(ROOT, file), 'utf8') }));
}

/** The files that declare `name` as a type, interface, class, enum, function or variable. */
export function declaringFiles(name: string, sources: readonly Source[]): string[] {
  const declaration = new RegExp(
    [
      `\\btype\\s+${name}\\s*(<[^>]*>)?\\s*=`,
      `\\b(interface|class)\\s+${name}\\b\\s*(<[^>]*>)?\\s*(\\{|extends|implements)`,
      `\\benum\\s+${name}\\s*\\{`,
      `\\bfunction\\*?\\s+${name}\\s*[<(]`,
      `\\b(const|let|var)\\s+${name}\\s*[:=]`,
    ].join('|'),
  );
  return sources.filter((source) => declaration.test(source.text)).map((source) => source.path);
}

/** The files that declare `field` as a zod schema field (`FIELD: z.`..., or a flag's schema). */
export function schemaFieldFiles(field: string, sources: readonly Source[]): string[] {
  const declaration = new RegExp(`(^|[\\s{,])${field}\\s*:\\s*(z|bool|flag)\\s*\\.`, 'm');
  return sources.filter((source) => declaration.test(source.text)).map((source) => source.path);
}

const sources = trackedSources();

describe('one definition per shared name', () => {
  it.each(Object.entries(HOMES))('%s is declared once, in %s', (name, home) => {
    expect(declaringFiles(name, sources)).toEqual([home]);
  });

  it.each(STORAGE_FIELDS)('the storage setting %s is declared once', (field) => {
    expect(schemaFieldFiles(field, sources)).toEqual([
      'packages/contracts/src/storage-settings.ts',
    ]);
  });

  it("the web app's icons are drawn in one module", () => {
    const web = sources.filter((s) => s.path.startsWith('apps/web/src/') && ICON.test(s.text));
    // The header's menu glyph stays with the header, which every page loads first: importing
    // the icon module there would bring every icon into that first load.
    expect(web.map((s) => s.path)).toEqual([
      'apps/web/src/app/layout/SiteHeader.tsx',
      'apps/web/src/components/icons.tsx',
    ]);
  });

  it("the web app's retry rule is written once, in its query client", () => {
    const web = sources.filter(
      (s) => s.path.startsWith('apps/web/src/') && RETRY_RULE.test(s.text),
    );
    expect(web.map((s) => s.path)).toEqual(['apps/web/src/lib/query-client.ts']);
  });

  it('no source writes its own concurrency limiter', () => {
    expect(sources.filter((s) => HAND_MADE_LIMITER.test(s.text)).map((s) => s.path)).toEqual([]);
  });

  it('finds a planted second declaration of each kind', () => {
    const planted = (text: string) => [...sources, { path: 'apps/web/src/planted.ts', text }];
    expect(declaringFiles('PlanType', planted("export type PlanType = 'free';"))).toEqual([
      HOMES.PlanType,
      'apps/web/src/planted.ts',
    ]);
    expect(
      declaringFiles('PhotoVerdict', planted('interface PhotoVerdict { ok: boolean }')),
    ).toEqual([HOMES.PhotoVerdict, 'apps/web/src/planted.ts']);
    expect(
      declaringFiles('isRecord', planted('const isRecord = (v: unknown) => v !== null;')),
    ).toEqual([HOMES.isRecord, 'apps/web/src/planted.ts']);
    expect(
      schemaFieldFiles('S3_BUCKET', planted('const env = z.object({ S3_BUCKET: z.string() });')),
    ).toEqual(['packages/contracts/src/storage-settings.ts', 'apps/web/src/planted.ts']);
    expect(HAND_MADE_LIMITER.test('class Gate {\n  private active = 0;\n}')).toBe(true);
    expect(ICON.test('export function LockIcon({ className }: Props) {')).toBe(true);
    expect(RETRY_RULE.test('    retry: (failures, error) => failures < 2,')).toBe(true);
    expect(RETRY_RULE.test('    retry: false,')).toBe(false);
    // A use is not a declaration.
    expect(
      declaringFiles('PlanType', planted("import type { PlanType } from '@studioshot/contracts';")),
    ).toEqual([HOMES.PlanType]);
  });
});
