import type { Db } from '@studioshot/db';
import type { Storage } from '@studioshot/storage';
import type { Redis } from 'ioredis';
import type { Env } from '../env.js';
import type { Logger } from '@studioshot/observability';
import type { ScheduledJobs } from '../scheduling/scheduled-jobs.js';

/** What the container opens once and every area is wired on. */
export interface Connections {
  db: Db;
  redis: Redis;
  logger: Logger;
  storage: Storage;
  /** BullMQ's key prefix (REDIS_PREFIX + 'bull'), shared by every queue of the deployment. */
  bullPrefix: string;
  /** The API's one job facility: each area queues its jobs and registers their handlers here. */
  scheduled: ScheduledJobs;
}

/** BullMQ's key prefix for the deployment: every queue's keys under REDIS_PREFIX. */
export function bullPrefixOf(env: Pick<Env, 'REDIS_PREFIX'>): string {
  return `${env.REDIS_PREFIX}bull`;
}
