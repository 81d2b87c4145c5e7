import type { Env } from '../env.js';
import { AdminSessionsRepository } from '../repositories/admin-sessions.repository.js';
import { ConsoleQueuesRepository } from '../repositories/console-queues.repository.js';
import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import { TasksRepository } from '../repositories/tasks.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { AdminAccessService } from '../services/admin-access.service.js';
import { FleetService } from '../services/fleet.service.js';
import type { QueueService } from '../services/queue.service.js';
import type { Connections } from './connections.js';

/** A console session lasts this long; the fleet page mints a fresh one each time it opens it. */
export const ADMIN_SESSION_SECONDS = 15 * 60;

/** The ops console's slice: who is an admin, the queue console's queues and the fleet's figures. */
export interface AdminArea {
  adminAccess: AdminAccessService;
  consoleQueues: ConsoleQueuesRepository;
  fleet: FleetService;
}

export function createAdminArea(
  env: Pick<Env, 'REDIS_PREFIX'>,
  shared: Pick<Connections, 'db' | 'redis' | 'bullPrefix'> & {
    usersRepo: UsersRepository;
    revocations: SessionRevocationsRepository;
    queue: QueueService;
  },
): AdminArea {
  const consoleQueues = new ConsoleQueuesRepository(shared.redis, shared.bullPrefix);
  return {
    adminAccess: new AdminAccessService({
      users: shared.usersRepo,
      sessions: new AdminSessionsRepository(shared.redis, env.REDIS_PREFIX),
      revocations: shared.revocations,
      sessionSeconds: ADMIN_SESSION_SECONDS,
    }),
    consoleQueues,
    fleet: new FleetService({
      queues: consoleQueues,
      tasks: new TasksRepository(shared.db),
      queue: shared.queue,
    }),
  };
}
