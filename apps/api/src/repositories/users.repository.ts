import type { Db, NewUser, User, UserUpdate } from '@studioshot/db';

export class UsersRepository {
  constructor(private readonly db: Db) {}

  findById(id: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<User | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
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

  update(id: string, changes: UserUpdate): Promise<User | undefined> {
    return this.db
      .updateTable('users')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }
}
