import * as contracts from '@studioshot/contracts';
import { z } from 'zod';
import {
  TAGS,
  bodyIsOptional,
  bodySpecOf,
  bodyTypes,
  errorStatuses,
  isJsonResponse,
  jsonSchemaOf,
  openApiPath,
  SchemaRef,
  type DeclaredRoute,
  type Tag,
} from './http/declare.js';

/**
 * The API description (OpenAPI 3.1), generated from the route declarations (`http/declare.ts`)
 * and the zod contracts they name. Requests are described as clients send them (zod input),
 * answers as we send them (zod output). A contract schema is a component named after its export
 * (`ZUserSchema` -> `User`); a schema a route declares inline is named after its operation.
 */

type JsonSchema = Record<string, unknown>;

const SCHEMA_REF = '#/components/schemas/';
const ERROR_COMPONENT = 'Error';

/** Every exported contract schema and its component name; the first export of one schema wins. */
const CONTRACT_NAMES: ReadonlyMap<z.ZodType, string> = (() => {
  const names = new Map<z.ZodType, string>();
  for (const [exported, value] of Object.entries(contracts)) {
    const match = /^Z(\w+)Schema$/.exec(exported);
    if (match && value instanceof z.ZodType && !names.has(value)) names.set(value, match[1]!);
  }
  return names;
})();

const STATUS_WORDS: Record<number, string> = {
  400: 'Bad request: the body, an encoding or the address cannot be read',
  401: 'Not signed in, or the session ended',
  402: 'Payment required: not enough credits, or the payment did not go through',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict with the current state: ask again after Retry-After seconds (a day when only a change the detail names resolves it)',
  410: 'Gone',
  413: 'The body is too large',
  415: 'Unsupported charset or Content-Encoding',
  422: 'A field is invalid (the detail names it)',
  426: 'Upgrade required',
  429: 'Too many attempts: wait for Retry-After seconds',
  502: 'The work failed (the detail says why)',
  503: 'A service it needs is unavailable',
};

const ERROR_HEADERS: Record<number, Record<string, object>> = {
  401: { 'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } } },
  409: {
    'Retry-After': {
      description:
        'Seconds until asking again is worthwhile: the expected wait for a conflict that waiting resolves (photo checks, a payment processing, a training running), 86400 (a day) for one that waiting does not (already registered, already refunded: change what the detail names first)',
      schema: { type: 'integer', minimum: 0 },
    },
  },
  429: {
    'Retry-After': {
      description: 'Seconds until the limit window frees',
      schema: { type: 'integer', minimum: 0 },
    },
  },
};

interface Roots {
  input: Map<z.ZodType, string>;
  output: Map<z.ZodType, string>;
}

/** camelCase of method and path: `post /api/v1/auth/login` -> `postApiV1AuthLogin`. */
function operationId(route: DeclaredRoute): string {
  const words = `${route.method} ${route.path}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word, i) => (i === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('');
}

function nameOf(schema: z.ZodType, fallback: string): string {
  return CONTRACT_NAMES.get(schema) ?? fallback;
}

/**
 * Constraints zod keeps where the input rendering cannot see them: a trimmed, lower-cased
 * string piped into a stricter one (an e-mail address) is described by what it is piped into;
 * a string trimmed before its minimum length is checked must hold a non-space character.
 */
function inputOverride(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const schema = ctx.zodSchema as z.ZodType;
  const def = schema._zod.def as { type: string; in?: z.ZodType; out?: z.ZodType };
  if (def.type === 'pipe' && def.in && def.out) {
    const described = ctx.jsonSchema.pattern !== undefined || ctx.jsonSchema.format !== undefined;
    if (!described && def.in._zod.def.type === 'string' && def.out._zod.def.type === 'string') {
      const out = z.toJSONSchema(def.out, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      for (const key of ['format', 'pattern', 'minLength', 'maxLength'] as const) {
        if (out[key] !== undefined) ctx.jsonSchema[key] ??= out[key];
      }
    }
    return;
  }
  const min = ctx.jsonSchema.minLength;
  if (def.type === 'string' && typeof min === 'number' && min > 0 && !ctx.jsonSchema.pattern) {
    const blank = schema.safeParse(' '.repeat(min)).success;
    const filled = schema.safeParse('x'.repeat(min)).success;
    if (!blank && filled) ctx.jsonSchema.pattern = '\\S';
  }
}

/**
 * Components of one side (requests or answers): every contract schema and the roots. The same
 * for every app of the process but for the roots, so kept by their names (copies are handed out:
 * the caller renames references in place).
 */
const componentsCache = new Map<string, Record<string, JsonSchema>>();
function components(roots: Map<z.ZodType, string>, io: 'input' | 'output') {
  const key = `${io}:${[...roots.values()].sort().join(',')}`;
  let schemas = componentsCache.get(key);
  if (!schemas) {
    schemas = renderComponents(roots, io);
    componentsCache.set(key, schemas);
  }
  return structuredClone(schemas);
}

function renderComponents(roots: Map<z.ZodType, string>, io: 'input' | 'output') {
  const registry = z.registry<{ id: string }>();
  const ids = new Set<string>();
  const add = (schema: z.ZodType, id: string) => {
    if (registry.has(schema)) return;
    if (ids.has(id)) throw new Error(`openapi: two schemas named ${id}`);
    ids.add(id);
    registry.add(schema, { id });
  };
  for (const [schema, id] of CONTRACT_NAMES) add(schema, id);
  for (const [schema, id] of roots) add(schema, id);
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => `${SCHEMA_REF}${id}`,
    ...(io === 'input' ? { override: inputOverride } : {}),
  });
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas as Record<string, JsonSchema>;
}

/** The component names `value` references, at any depth. */
function refsIn(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF)) {
        found.add(child.slice(SCHEMA_REF.length));
      } else refsIn(child, found);
    }
  }
  return found;
}

/** The named schemas reachable from `start`, following references. */
function reachable(start: Set<string>, schemas: Record<string, JsonSchema>): Set<string> {
  const seen = new Set<string>();
  const pending = [...start];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    pending.push(...refsIn(schemas[name], new Set()));
  }
  return seen;
}

/** Renames references in place. */
function renameRefs(value: unknown, renamed: Map<string, string>): void {
  if (Array.isArray(value)) for (const item of value) renameRefs(item, renamed);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(record)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(SCHEMA_REF)) {
        const to = renamed.get(child.slice(SCHEMA_REF.length));
        if (to) record[key] = `${SCHEMA_REF}${to}`;
      } else renameRefs(child, renamed);
    }
  }
}

const ref = (name: string) => ({ $ref: `${SCHEMA_REF}${name}` });

function schemaRefsIn(value: unknown, found: SchemaRef[] = []): SchemaRef[] {
  if (value instanceof SchemaRef) found.push(value);
  else if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) schemaRefsIn(child, found);
  }
  return found;
}

/** A copy of `value` with each SchemaRef replaced. */
function withRefs(value: unknown, replace: (found: SchemaRef) => object): Record<string, unknown> {
  const copy = (v: unknown): unknown => {
    if (v instanceof SchemaRef) return replace(v);
    if (Array.isArray(v)) return v.map(copy);
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, child]) => [k, copy(child)]));
    }
    return v;
  };
  return copy(value ?? {}) as Record<string, unknown>;
}

/** A parameter's schema: inline, as clients send it. */
function parameterSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: inputOverride,
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parameters(route: DeclaredRoute): object[] {
  const list: object[] = [];
  const shapeOf = (schema: z.ZodObject | undefined) =>
    Object.entries((schema?.shape ?? {}) as Record<string, z.ZodType>);
  const declared = new Map(shapeOf(route.params));
  for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
    const schema = declared.get(name!);
    list.push({
      name,
      in: 'path',
      required: true,
      schema: schema ? parameterSchema(schema) : { type: 'string' },
      ...(schema?.description ? { description: schema.description } : {}),
    });
  }
  for (const [where, schema] of [
    ['query', route.query],
    ['header', route.headers],
  ] as const) {
    for (const [name, field] of shapeOf(schema)) {
      list.push({
        name,
        in: where,
        required: !field.safeParse(undefined).success,
        schema: parameterSchema(field),
        ...(field.description ? { description: field.description } : {}),
      });
    }
  }
  return list;
}

function security(route: DeclaredRoute): object[] {
  if (route.auth === 'required') return [{ bearer: [] }];
  if (route.auth === 'optional') return [{ bearer: [] }, {}];
  return [];
}

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: {
    securitySchemes: Record<string, object>;
    schemas: Record<string, JsonSchema>;
  };
};

/** The document of `routes`. Throws on a route it cannot describe, so a bad one fails at start. */
export function buildOpenApiDocument(
  routes: readonly DeclaredRoute[],
  version: string,
): OpenApiDocument {
  const roots: Roots = {
    input: new Map(),
    output: new Map([[contracts.ZErrorSchema, ERROR_COMPONENT]]),
  };
  const names = new Map<DeclaredRoute, { body?: string; responses: Record<number, string> }>();
  for (const route of routes) {
    const id = operationId(route);
    const body = bodySpecOf(route.body);
    const entry: { body?: string; responses: Record<number, string> } = { responses: {} };
    if (body) {
      entry.body = nameOf(body.schema, `${id[0]!.toUpperCase()}${id.slice(1)}Body`);
      roots.input.set(body.schema, roots.input.get(body.schema) ?? entry.body);
      entry.body = roots.input.get(body.schema);
    }
    for (const [status, response] of Object.entries(route.responses)) {
      const schema = jsonSchemaOf(response);
      if (!schema) continue;
      const name =
        roots.output.get(schema) ??
        nameOf(schema, `${id[0]!.toUpperCase()}${id.slice(1)}${status}Response`);
      roots.output.set(schema, name);
      entry.responses[Number(status)] = name;
    }
    for (const found of schemaRefsIn(route.extensions)) {
      const side = roots[found.io];
      side.set(found.schema, side.get(found.schema) ?? nameOf(found.schema, `${id}Message`));
    }
    names.set(route, entry);
  }

  const inputs = components(roots.input, 'input');
  const outputs = components(roots.output, 'output');
  const usedInputs = reachable(new Set(roots.input.values()), inputs);
  const usedOutputs = reachable(new Set(roots.output.values()), outputs);
  // A schema read in requests and written in answers keeps its name for answers; the request
  // side gets `...Input` where the two renderings differ (defaults, coercion).
  const renamed = new Map<string, string>();
  for (const name of usedInputs) {
    if (usedOutputs.has(name) && JSON.stringify(inputs[name]) !== JSON.stringify(outputs[name])) {
      renamed.set(name, `${name}Input`);
    }
  }
  const schemas: Record<string, JsonSchema> = {};
  for (const name of [...usedOutputs].sort()) schemas[name] = outputs[name]!;
  for (const name of [...usedInputs].sort()) {
    const schema = inputs[name]!;
    renameRefs(schema, renamed);
    schemas[renamed.get(name) ?? name] = schema;
  }
  const inputName = (name: string) => renamed.get(name) ?? name;

  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<Tag>();
  for (const route of routes) {
    const entry = names.get(route)!;
    const body = bodySpecOf(route.body);
    const responses: Record<string, object> = {};
    for (const [status, response] of Object.entries(route.responses)) {
      if (isJsonResponse(response)) {
        responses[status] = {
          description:
            response instanceof z.ZodType
              ? Number(status) < 300
                ? 'Success'
                : (STATUS_WORDS[Number(status)] ?? 'Answer')
              : response.description,
          content: { 'application/json': { schema: ref(entry.responses[Number(status)]!) } },
        };
      } else {
        responses[status] = {
          description: response.description,
          ...(response.contentType
            ? {
                content: {
                  [response.contentType]: { schema: { type: 'string', format: 'binary' } },
                },
              }
            : {}),
          ...(response.headers ? { headers: response.headers } : {}),
        };
      }
    }
    for (const status of errorStatuses(route)) {
      if (responses[status]) continue;
      responses[status] = {
        description: STATUS_WORDS[status] ?? 'Error',
        ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
        content: { 'application/json': { schema: ref(ERROR_COMPONENT) } },
      };
    }
    const parameterList = parameters(route);
    tags.add(route.tag);
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.method] = {
      operationId: operationId(route),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security: security(route),
      ...(parameterList.length ? { parameters: parameterList } : {}),
      ...(body
        ? {
            requestBody: {
              required: !bodyIsOptional(body),
              content: Object.fromEntries(
                bodyTypes(body).map((type) => [type, { schema: ref(inputName(entry.body!)) }]),
              ),
            },
          }
        : {}),
      responses,
      ...withRefs(route.extensions, (found) =>
        ref(
          found.io === 'input'
            ? inputName(roots.input.get(found.schema)!)
            : roots.output.get(found.schema)!,
        ),
      ),
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Studioshot API',
      version,
      description:
        'Every error is answered `{detail, code}` (the Error schema). Generated from the route declarations and the zod contracts of packages/contracts.',
    },
    tags: (Object.keys(TAGS) as Tag[])
      .filter((tag) => tags.has(tag))
      .map((tag) => ({ name: tag, description: TAGS[tag] })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas,
    },
  };
}
