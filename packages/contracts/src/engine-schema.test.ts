import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { engineProtocolJsonSchema } from './engine.js';

const schemaFile = fileURLToPath(new URL('../engine-protocol.schema.json', import.meta.url));

describe('engine-protocol.schema.json', () => {
  // The Python engine validates against this file; it must be exactly what the zod generates.
  // Regenerate with `UPDATE_ENGINE_SCHEMA=1 pnpm --filter @studioshot/contracts test`.
  it('is generated from the zod schemas', () => {
    const generated = `${JSON.stringify(engineProtocolJsonSchema(), null, 2)}\n`;
    if (process.env.UPDATE_ENGINE_SCHEMA === '1') writeFileSync(schemaFile, generated);
    expect(readFileSync(schemaFile, 'utf8')).toBe(generated);
  });
});
