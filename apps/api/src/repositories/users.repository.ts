import type { Db, NewUser, User, UserUpdate } from '@studioshot/db';
import type { UserCache } from './user-cache.js';

export class UsersRepository {
  /** Profile reads that missed the cache and are under way, with the cache's marker at their start. */
  private readonly reading = new Map<string, { marker: number; user: Promise<User | undefined> }>();

  constructor(
    private readonly db: Db,
    private readonly cache?: UserCache,
  ) {}

  /**
   * For display only (the profile): may come from the change-feed cache. Reads of one user that
   * miss it together share one query (when an entry expires under load, every connection asking
   * for that user missed at once), unless a change was announced between their starts: a read
   * that starts after a change never takes an answer read before it.
   */
  async findByIdForDisplay(id: string): Promise<User | undefined> {
    const cache = this.cache;
    const cached = cache?.get(id);
    if (cached) return cached;
    if (!cache?.live) return this.findById(id);
    const marker = cache.mark(id);
    const underWay = this.reading.get(id);
    if (underWay?.marker === marker) return underWay.user;
    const user = this.findById(id)
      .then((found) => {
        if (found) cache.set(found, marker);
        return found;
      })
      .finally(() => {
        if (this.reading.get(id)?.user === user) this.reading.delete(id);
      });
    this.reading.set(id, { marker, user });
    return user;
  }

  findById(id: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The live account of this address: one being deleted has nobody to sign in as. */
  findByEmail(email: string): Promise<User | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .where('deletion_requested_at', 'is', null)
      .executeTakeFirst();
  }

  /** Returns undefined when the e-mail is already taken (unique index), never throws for it. */
  create(user: NewUser): Promise<User | undefined> {
    return this.db
      .insertInto('users')
      .values(user)
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  async update(id: string, changes: UserUpdate): Promise<User | undefined> {
    const user = await this.db
      .updateTable('users')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    this.cache?.changed(id);
    return user;
  }
}
