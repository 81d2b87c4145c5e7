import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every duration a page states about training, generation, checks or delivery comes from the
 * measured estimate the API serves (durations.ts maps a measured median to the spec's phrase only
 * when the phrase is true) or from the server's configuration. No other source of the web app
 * may write one as a literal.
 */
const MAPS_MEASURED_DURATIONS = path.join('features', 'queue', 'durations.ts');
const DURATION =
  /\b\d+(\.\d+)?(\s*(-|–|to)\s*\d+)?\s*(minutes?|mins?|seconds?|secs?|hours?|hrs?)\b(?!-)/i;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'test' ? [] : sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$|testing\.tsx?$/.test(name) ? [file] : [];
  });
}

/** The code without its comments, which may say how long things take. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

describe('no page states a fixed duration', () => {
  it('durations are written only where measured medians become phrases', () => {
    const root = path.resolve(__dirname, '../..');
    const files = sources(root);
    expect(files.length).toBeGreaterThan(50);
    const found = files
      .filter((file) => path.relative(root, file) !== MAPS_MEASURED_DURATIONS)
      .flatMap((file) => {
        const match = DURATION.exec(withoutComments(readFileSync(file, 'utf8')));
        return match ? [`${path.relative(root, file)}: ${match[0]}`] : [];
      });
    expect(found).toEqual([]);
  });

  it('catches one', () => {
    expect(DURATION.test('<p>Your model is ready in 20 min</p>')).toBe(true);
    expect(DURATION.test("'usually 15-30 minutes'")).toBe(true);
    expect(DURATION.test('`ready in ${seconds} seconds`')).toBe(false);
  });
});
