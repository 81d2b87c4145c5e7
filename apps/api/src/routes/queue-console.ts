import { ADMIN_QUEUES_PATH } from '@studioshot/contracts';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { Express } from 'express';

/**
 * bull-board, BullMQ's own console, over every queue of the deployment: queues, jobs, retries,
 * and failed jobs with their errors. An Express app of its own (its views and static files); the
 * app mounts it behind the admin session check.
 */
export function queueConsole(queues: readonly Queue[]): Express {
  const server = new ExpressAdapter();
  server.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    serverAdapter: server,
    options: { uiConfig: { boardTitle: 'Studioshot queues' } },
  });
  return server.getRouter() as Express;
}
