import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ProtectedRoute } from '../features/auth/ProtectedRoute';
import { routes } from './router';

/**
 * The router's table as data, for the browser tests that walk every page (axe, reflow, layout
 * shift): e2e/route-table.json. A route added to the router fails this test until the file is
 * regenerated (`UPDATE_ROUTE_TABLE=1 npx vitest run src/app/route-table.test.ts`), so a new page
 * is checked without editing those tests.
 */
const TABLE_FILE = path.resolve(__dirname, '../../../../e2e/route-table.json');

interface RouteEntry {
  path: string;
  protected: boolean;
}

function walk(list: RouteObject[], base: string, isProtected: boolean): RouteEntry[] {
  return list.flatMap((route) => {
    const own = route.index
      ? base
      : route.path
        ? `${base.replace(/\/$/, '')}/${route.path.replace(/^\//, '')}`
        : base;
    const guarded = isProtected || route.Component === ProtectedRoute;
    const here = route.index || route.path ? [{ path: own || '/', protected: guarded }] : [];
    return [...here, ...walk(route.children ?? [], own, guarded)];
  });
}

describe('the route table', () => {
  it('e2e/route-table.json lists every route of the router', () => {
    const table = walk(routes, '', false);
    const unique = [...new Map(table.map((entry) => [entry.path, entry])).values()];
    const json = `${JSON.stringify(unique, null, 2)}\n`;
    if (process.env.UPDATE_ROUTE_TABLE) writeFileSync(TABLE_FILE, json);
    expect(readFileSync(TABLE_FILE, 'utf8')).toBe(json);
  });
});
