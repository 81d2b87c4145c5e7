import type { Db, NewUser, User, UserUpdate } from '@studioshot/db';
import type { UserCache } from './user-cache.js';

export class UsersRepository {
  constructor(
    private readonly db: Db,
    private readonly cache?: UserCache,
  ) {}

  /** For display only (the profile): may come from the change-feed cache. */
  async findByIdForDisplay(id: string): Promise<User | undefined> {
    const cached = this.cache?.get(id);
    if (cached) return cached;
    const marker = this.cache?.mark(id) ?? 0;
    const user = await this.findById(id);
    if (user) this.cache?.set(user, marker);
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
