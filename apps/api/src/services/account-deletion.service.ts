import { SCHEDULED_JOBS, MESSAGES, type AccountDeletion } from '@studioshot/contracts';
import { userPrefix, type Storage } from '@studioshot/storage';
import { AppError } from '../errors.js';
import type { Logger } from '@studioshot/observability';
import type { Caller } from './caller.js';
import { NotYet } from '../scheduling/scheduled-jobs.js';
import type { DeletionRepository } from '../repositories/deletion.repository.js';
import type { PaymentProvider } from '../money/payment-providers/provider.js';
import type { RedisTracesRepository } from '../repositories/redis-traces.repository.js';
import type { RefreshGraceRepository } from '../repositories/refresh-grace.repository.js';
import type { ServedImages } from './served-images.js';
import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { checkCallerPassword } from './caller-password.js';
import type { PasswordHasher } from './passwords.js';
import { accountKey, type AuthRateLimits } from './rate-limits.js';
import {
  runSteps,
  type DeletionJobs,
  type DeletionRun,
  type DeletionStep,
} from './deletion-steps.js';
import type { WorkStopper } from './work-stopper.js';

/** What the account's cancelled tasks say. */
const CANCELLED_FOR_DELETION = 'Cancelled: the account was deleted';

interface Account {
  userId: string;
  email: string;
  deletionId: string;
}

export interface AccountDeletionDeps {
  users: UsersRepository;
  passwords: PasswordHasher;
  deletions: DeletionRepository;
  jobs: DeletionJobs;
  revocations: SessionRevocationsRepository;
  /** The account's generated images are refused by every process once deletion is asked. */
  servedImages: Pick<ServedImages, 'withdraw'>;
  grace: RefreshGraceRepository;
  limits: AuthRateLimits;
  provider: PaymentProvider;
  storage: Storage;
  traces: RedisTracesRepository;
  stopper: WorkStopper;
  logger: Logger;
}

/**
 * Deleting an account, so nothing of the person remains. The call (password confirmed) marks the
 * account deleting, which stops every sign-in at once, revokes every session (Redis included, so
 * access tokens already issued stop too) and queues the job; its id is the deletion's own random
 * id, once per account. The job then takes everything about the person, step by step:
 *
 *  1. sign-ins: every session revoked again, their refresh answers dropped; photo sets closed;
 *  2. work: every unfinished task cancelled (its worker told on the cancel channel);
 *  3. workers: nothing goes on until no worker holds one of the account's jobs;
 *  4. payment provider: the customer deleted there, which cancels the subscription;
 *  5. Redis: rate-limit counters, and every key, job and event that names the person or one of
 *     their things (a task's job, its progress events);
 *  6. database: every row about the person (photos, models, generations, images, tasks, tokens,
 *     sessions, exports, subscriptions...), the e-mails sent to them, the credits left (through
 *     the ledger); payments and the ledger stay, pointing at the account's id;
 *  7. storage: everything under `users/{id}/`, on either driver;
 *  8. the account row emptied into a tombstone holding its id: the e-mail is free again.
 *
 * Redis goes while the rows still say which things were the person's; the rows go before the
 * files, so a writer still finishing (an export) finds its row gone and removes what it wrote;
 * the account row goes last, as it holds the e-mail the earlier steps need.
 */
export class AccountDeletionService {
  private readonly steps: readonly DeletionStep<Account>[];

  constructor(private readonly deps: AccountDeletionDeps) {
    const { deletions, revocations, grace, stopper, provider, storage, traces, limits } = deps;
    this.steps = [
      {
        name: 'sign-ins',
        run: async ({ userId }) => {
          await revocations.revoke(await deletions.revokeAllSignIns(userId));
          await grace.forget(await deletions.refreshTokenHashes(userId));
          await deletions.closeAllSessions(userId);
        },
      },
      {
        name: 'work',
        run: async ({ userId }) =>
          stopper.stop(await deletions.unfinishedWork(userId), {
            reason: CANCELLED_FOR_DELETION,
            keepTrainingSlot: true,
          }),
      },
      {
        name: 'workers',
        run: async ({ userId }) => stopper.assertReleased(await deletions.allWork(userId)),
      },
      {
        name: 'payment-provider',
        run: async ({ userId }) => provider.forgetCustomer(userId),
      },
      {
        name: 'redis',
        run: async ({ userId, email }) => {
          await limits.clearAccount(email);
          // The person, and each of their things a job or an event may name instead.
          await traces.scrub([
            userId,
            email,
            accountKey(email),
            ...(await deletions.personalIds(userId)),
          ]);
        },
      },
      {
        name: 'database',
        run: async (account) => {
          // Work accepted since step 2 (a request already under way): stopped on the next run.
          if (!(await deletions.eraseAccount(account)))
            throw new NotYet('the account has new work to stop first');
        },
      },
      {
        name: 'storage',
        run: async ({ userId }) => {
          await storage.deletePrefix(userPrefix(userId));
        },
      },
      {
        name: 'tombstone',
        run: async ({ userId }) => deletions.tombstone(userId),
      },
    ];
  }

  get stepCount(): number {
    return this.steps.length;
  }

  /** DELETE /api/v1/users/me: checks the password, stops every sign-in, queues the deletion. */
  async request(caller: Caller, password: string): Promise<AccountDeletion> {
    const { users, deletions, revocations } = this.deps;
    const userId = caller.userId;
    const user = await users.findById(userId);
    if (!user || user.deleted_at) throw new AppError('unauthorized', MESSAGES.authRequired);
    await checkCallerPassword(this.deps, caller, user, password, MESSAGES.deletePasswordWrong);
    const deletionId = await deletions.markAccountDeleting(userId);
    if (!deletionId) throw new AppError('unauthorized', MESSAGES.authRequired);
    // Queued before anything else can fail: its first step revokes the sessions again.
    await this.enqueue(deletionId);
    await revocations.revoke(await deletions.revokeAllSignIns(userId));
    await this.deps.servedImages.withdraw([userId]);
    this.deps.logger.info({ deletionId }, 'account deletion requested');
    return this.status(deletionId);
  }

  /** Where a deletion stands, for its page (which has no session any more). */
  async status(deletionId: string): Promise<AccountDeletion> {
    const deletion = await this.deps.deletions.findDeletion(deletionId);
    if (!deletion) throw new AppError('not_found', MESSAGES.accountDeletionNotFound);
    const total = this.steps.length;
    if (deletion.deleted_at)
      return {
        deletion_id: deletionId,
        status: 'deleted',
        steps_done: total,
        steps_total: total,
        message: MESSAGES.accountDeleted,
      };
    const done = (await this.deps.jobs.progress(deletionId)) ?? 0;
    return {
      deletion_id: deletionId,
      status: 'deleting',
      steps_done: Math.min(done, total - 1),
      steps_total: total,
      message: MESSAGES.accountDeleting,
    };
  }

  /** The job. `run.stepDone` reports progress; a deletion already finished does nothing. */
  async run(deletionId: string, run: DeletionRun): Promise<void> {
    const deletion = await this.deps.deletions.findDeletion(deletionId);
    if (!deletion || deletion.deleted_at) return;
    await runSteps(this.steps, { userId: deletion.id, email: deletion.email, deletionId }, run);
    this.deps.logger.info({ deletionId }, 'account deleted');
  }

  /** Queues again the deletions asked for and not finished (the API stopped in between). */
  async resumeUnfinished(): Promise<number> {
    const unfinished = await this.deps.deletions.unfinishedDeletions();
    for (const { deletion_id: id } of unfinished) if (id) await this.enqueue(id);
    return unfinished.length;
  }

  /** Queues the deletion's job under the deletion's own id: while it exists, a repeat adds nothing. */
  private enqueue(deletionId: string): Promise<string> {
    return this.deps.jobs.at(SCHEDULED_JOBS.accountDelete, {
      id: deletionId,
      runAt: new Date(),
      data: { deletion_id: deletionId },
    });
  }
}
