import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Every committed change to a user row is announced on the `users_changed` channel (NOTIFY is
 * delivered at commit, never for rolled-back work), whichever process or statement made it, so
 * API processes can cache profiles and drop an entry the moment it goes stale.
 */
export async function up(db: Db): Promise<void> {
  await sql`
    CREATE FUNCTION notify_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('users_changed', COALESCE(NEW.id, OLD.id)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER users_changed AFTER UPDATE OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION notify_user_changed()`.execute(db);
}

export async function down(db: Db): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS users_changed ON users`.execute(db);
  await sql`DROP FUNCTION IF EXISTS notify_user_changed()`.execute(db);
}
