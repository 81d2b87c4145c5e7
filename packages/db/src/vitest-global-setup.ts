import { createMigratedDatabase, dropDatabase } from './testing.js';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    redisUrl: string;
  }
}

/**
 * Vitest global setup for integration suites: one migrated template database per run, which each
 * suite clones (createTestDatabase), plus the Redis URL; read them with `inject(...)`.
 */
export default async function setup(project: TestProject) {
  const pgAdminUrl = process.env.STUDIOSHOT_PG_ADMIN_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!pgAdminUrl || !redisUrl) {
    throw new Error(
      'STUDIOSHOT_PG_ADMIN_URL and REDIS_URL are not set: run the tests with `npm test`, which starts Postgres and Redis.',
    );
  }
  const template = await createMigratedDatabase(pgAdminUrl);
  project.provide('pgAdminUrl', pgAdminUrl);
  project.provide('pgTemplate', template);
  project.provide('redisUrl', redisUrl);
  return async () => {
    await dropDatabase(pgAdminUrl, template);
  };
}
