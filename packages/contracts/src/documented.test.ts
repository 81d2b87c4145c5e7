// The request schemas say exactly what they accept: the JSON Schema the OpenAPI document shows
// (zod's io 'input') and zod's own parse agree, string by string. The API fuzz run (schemathesis,
// apps/api/test/fuzz.test.ts) fails on a documented-valid request refused and on a
// documented-invalid one accepted; these are the cases it found, checked without a server.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from './index.js';

type JsonSchema = {
  type?: string;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
};

/** Strings that tell a loose document from an exact one. */
const SAMPLES = [
  '',
  ' ',
  '\u00a0',
  'x',
  ' x ',
  '\u3000x\ufeff',
  'a\u0000b',
  '\u0000',
  'Ada Lovelace',
  'ada@example.com',
  ' Ada@Example.COM ',
  'a!b@example.com',
  'a@b.c',
  'person',
  'Person',
  ' person',
  'prof_1',
  '4242 4242 4242 4242',
  '12/34',
  '13/34',
  '123',
  'e3e70682-c209-4cac-a29f-6fbed82c07cd',
  'idem-key-0001',
  'x'.repeat(65),
  ` ${'x'.repeat(199)} `,
  'x'.repeat(201),
];

/** JSON Schema's own verdict on a string (the keywords zod emits for strings). */
function documentedValid(schema: JsonSchema, value: string): boolean {
  if (schema.anyOf) return schema.anyOf.some((branch) => documentedValid(branch, value));
  if (schema.type !== 'string') return false;
  if (schema.enum) return schema.enum.includes(value);
  if ('const' in schema) return schema.const === value;
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) return false;
  if (schema.maxLength !== undefined && length > schema.maxLength) return false;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return false;
  return true;
}

const requestSchemas = (Object.entries(contracts) as [string, unknown][]).filter(
  (entry): entry is [string, z.ZodObject] =>
    /^Z\w*(Request|Form|Params)Schema$/.test(entry[0]) && entry[1] instanceof z.ZodObject,
);

describe('request schemas document exactly what they accept', () => {
  it('covers the request schemas', () => {
    expect(requestSchemas.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'ZRegisterRequestSchema',
        'ZLoginRequestSchema',
        'ZResetPasswordRequestSchema',
        'ZStartTrainingRequestSchema',
        'ZTestCardConfirmRequestSchema',
        'ZInferenceGenerateRequestSchema',
      ]),
    );
  });

  for (const [name, schema] of requestSchemas) {
    it(`${name}: every text field, sample by sample`, () => {
      const json = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
      const mismatches: string[] = [];
      for (const [field, documented] of Object.entries(json.properties ?? {})) {
        const strings =
          documented.type === 'string' || documented.anyOf?.some((b) => b.type === 'string');
        // A file part (format binary) is no text; template ids are checked by their own pattern.
        if (!strings || documented.format === 'binary' || documented.pattern?.startsWith('^prof_'))
          continue;
        const shape = schema.shape as Record<string, z.ZodType>;
        for (const sample of SAMPLES) {
          const accepted = shape[field]!.safeParse(sample).success;
          if (accepted !== documentedValid(documented, sample))
            mismatches.push(
              `${field} ${JSON.stringify(sample)}: zod ${accepted ? 'accepts' : 'refuses'}`,
            );
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});

describe('what the fuzzer found', () => {
  const registration = { password: 'secret1', name: 'Ada' };

  it('an empty or malformed e-mail is refused by the document too', () => {
    for (const email of ['', 'a!b@example.com', 'a@b.c']) {
      expect(contracts.ZRegisterRequestSchema.safeParse({ ...registration, email }).success).toBe(
        false,
      );
    }
    expect(
      contracts.ZRegisterRequestSchema.parse({ ...registration, email: ' Ada@Example.COM ' }).email,
    ).toBe('ada@example.com');
  });

  it('a blank name is refused with the spec message, whatever whitespace it is made of', () => {
    const result = contracts.ZRegisterRequestSchema.safeParse({
      ...registration,
      email: 'a@b.co',
      name: '\u00a0 \u3000',
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Full name is required']);
  });

  it('JSON numbers are numbers: "4" and null are refused; a form field is read from its digits', () => {
    const base = { model_id: 'e3e70682-c209-4cac-a29f-6fbed82c07cd' };
    for (const num_images of ['4', null, true]) {
      expect(
        contracts.ZGenerateTrainedRequestSchema.safeParse({ ...base, num_images }).success,
      ).toBe(false);
    }
    expect(contracts.ZGenerateImageFormSchema.parse({ num_images: '3' }).num_images).toBe(3);
    expect(contracts.ZGenerateImageRequestSchema.safeParse({ num_images: '3' }).success).toBe(
      false,
    );
  });

  it('sides are multiples of 64, and the document lists the square pairs', () => {
    expect(
      contracts.ZFluxGenerateRequestSchema.safeParse({ width: 1000, height: 1000 }).success,
    ).toBe(false);
    const json = z.toJSONSchema(contracts.ZFluxGenerateRequestSchema, { io: 'input' }) as {
      anyOf: { properties?: Record<string, { const?: number }> }[];
    };
    const pairs = json.anyOf.filter((b) => b.properties?.width && b.properties.height);
    expect(pairs).toHaveLength(contracts.GENERATION_SIZES.length);
    expect(pairs.every((b) => b.properties!.width!.const === b.properties!.height!.const)).toBe(
      true,
    );
  });

  it('queue submit: a generation is documented with its real params', () => {
    const submit = (params: object) =>
      contracts.ZQueueSubmitRequestSchema.safeParse({ task_type: 'generation', params }).success;
    expect(submit({ '': {} })).toBe(false);
    expect(submit({ template_id: 'prof_1', idempotency_key: 'idem-key-0001' })).toBe(true);
  });

  it('the card form: incomplete cards are refused before any payment is looked at', () => {
    const card = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Ada' };
    const confirm = (over: object) =>
      contracts.ZTestCardConfirmRequestSchema.safeParse({
        payment_intent_id: 'pi_1',
        client_secret: 'secret',
        card: { ...card, ...over },
      });
    expect(confirm({}).success).toBe(true);
    for (const over of [{ number: '' }, { expiry: '13/34' }, { cvc: '12' }, { name: ' ' }]) {
      expect(confirm(over).error?.issues[0]?.message).toBe(contracts.MESSAGES.cardIncomplete);
    }
  });

  it('an upgrade without a target plan says so', () => {
    for (const body of [{}, { plan_id: null }, { plan_id: '' }]) {
      expect(contracts.ZCreateUpgradeRequestSchema.safeParse(body).error?.issues[0]?.message).toBe(
        contracts.MESSAGES.noTargetPlan,
      );
    }
  });
});
