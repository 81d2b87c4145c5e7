import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEMPLATES } from './index.js';

/** The web app serves its public/ folder at the site root: every imageUrl is a file there. */
const PUBLIC = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../apps/web/public',
);

/** Width and height from a baseline or progressive JPEG's frame header. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.readUInt16BE(0)).toBe(0xffd8);
  let offset = 2;
  while (offset < bytes.length) {
    const marker = bytes.readUInt16BE(offset);
    const length = bytes.readUInt16BE(offset + 2);
    if (marker >= 0xffc0 && marker <= 0xffc2) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  throw new Error('no JPEG frame header');
}

describe('template previews (rendered by apps/worker/scripts/render-template-previews.ts)', () => {
  const urls = TEMPLATES.flatMap((t) => [t.imageUrl, ...t.variants.map((v) => v.imageUrl)]);

  it.each(urls)('%s is a 400x450 JPEG served by the web app', (url) => {
    const bytes = readFileSync(path.join(PUBLIC, url));
    expect(jpegSize(bytes)).toEqual({ width: 400, height: 450 });
  });

  it('differ from one another: every variant is its own picture', () => {
    const variants = TEMPLATES.flatMap((t) => t.variants.map((v) => v.imageUrl));
    const contents = new Set(
      variants.map((url) => readFileSync(path.join(PUBLIC, url)).toString('base64')),
    );
    expect(contents.size).toBe(variants.length);
  });
});
