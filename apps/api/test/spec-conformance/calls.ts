import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The contract's call table (docs/spec/calls.md), read as its top describes it. */
export const CALLS_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../docs/spec/calls.md',
);

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'file';

export interface RequestField {
  name: string;
  type: FieldType;
  optional: boolean;
  nullable: boolean;
}

export interface SpecCall {
  id: string;
  section: string;
  method: string;
  /** As the contract writes it: `{name}` a path parameter, `?limit&offset` a query. */
  path: string;
  auth: 'bearer' | 'none' | 'optional';
  body: 'json' | 'multipart' | 'form' | 'query' | 'none' | 'not shown';
  request: RequestField[];
  /** Each entry: alternatives (`x or y`), each a path such as `a.b` or `a[].b`, `?` optional. */
  answer: string[][];
  timeoutMs: number;
  messages: string[];
}

const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function requestField(text: string): RequestField {
  const match = /^(\w+)(\?)?: (string|integer|number|boolean|file)\b(.*)$/.exec(text);
  if (!match) throw new Error(`calls.md: unreadable request field \`${text}\``);
  return {
    name: match[1]!,
    optional: match[2] === '?',
    type: match[3] as FieldType,
    nullable: / or null\b/.test(match[4]!),
  };
}

/** Every row of the table, in its order. */
export function readSpecCalls(file = CALLS_FILE): SpecCall[] {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return rows.map((line) => {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (cells.length !== 10) throw new Error(`calls.md: a row with ${cells.length} cells: ${line}`);
    const [id, section, method, callPath, auth, body, request, answer, timeout, messages] = cells;
    return {
      id: ticked(id!)[0]!,
      section: section!,
      method: method!,
      path: ticked(callPath!)[0]!,
      auth: auth as SpecCall['auth'],
      body: body as SpecCall['body'],
      request: ticked(request!).map(requestField),
      answer: ticked(answer!).map((entry) => entry.split(' or ')),
      timeoutMs: Number(/^(\d+) s$/.exec(timeout!)?.[1] ?? NaN) * 1000,
      messages: ticked(messages!),
    };
  });
}

/** Whether `value` carries the answer path `field` (`a.b`, `a[].b`, `a[]`; `?` optional). */
export function hasAnswerField(value: unknown, field: string): boolean {
  const optional = field.endsWith('?');
  const parts = (optional ? field.slice(0, -1) : field).split('.');
  const walk = (node: unknown, rest: string[]): boolean => {
    if (rest.length === 0) return true;
    const [head, ...tail] = rest as [string, ...string[]];
    const list = head.endsWith('[]');
    const key = list ? head.slice(0, -2) : head;
    if (node === null || typeof node !== 'object' || !(key in node)) return optional;
    const child = (node as Record<string, unknown>)[key];
    if (!list) return walk(child, tail);
    if (!Array.isArray(child)) return false;
    return child.every((item) => walk(item, tail));
  };
  return walk(value, parts);
}

/** Whether a value is of the contract's field type. */
export function ofType(value: unknown, field: RequestField): boolean {
  if (value === null) return field.nullable;
  switch (field.type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'file':
      return false;
  }
}
