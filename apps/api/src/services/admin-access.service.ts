import type { AdminSessionsRepository } from '../repositories/admin-sessions.repository.js';
import type { SessionRevocationsRepository } from '../repositories/session-revocations.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';

/**
 * Who may use the ops console. The role is read from the database on every call (never from a
 * cache or a token), so revoking it with the command-line tool takes effect at once; a console
 * session also ends with the sign-in it was minted from (logout, a password change).
 */
export class AdminAccessService {
  constructor(
    private readonly deps: {
      users: Pick<UsersRepository, 'findById'>;
      sessions: AdminSessionsRepository;
      revocations: Pick<SessionRevocationsRepository, 'isRevoked'>;
      /** How long a console session holds. */
      sessionSeconds: number;
    },
  ) {}

  get sessionSeconds(): number {
    return this.deps.sessionSeconds;
  }

  async isAdmin(userId: string): Promise<boolean> {
    const user = await this.deps.users.findById(userId);
    return user?.role === 'admin' && !user.deletion_requested_at;
  }

  /** A console session for an admin's sign-in; undefined for anyone else. */
  async openSession(userId: string, sessionId: string): Promise<string | undefined> {
    if (!(await this.isAdmin(userId))) return undefined;
    return this.deps.sessions.open({ userId, sessionId }, this.deps.sessionSeconds);
  }

  /** The admin holding this console session, while the session, its sign-in and the role stand. */
  async sessionHolder(token: string | undefined): Promise<string | undefined> {
    if (!token) return undefined;
    const holder = await this.deps.sessions.find(token);
    if (!holder) return undefined;
    if (await this.deps.revocations.isRevoked(holder.sessionId)) return undefined;
    return (await this.isAdmin(holder.userId)) ? holder.userId : undefined;
  }

  endSession(token: string): Promise<void> {
    return this.deps.sessions.end(token);
  }
}
