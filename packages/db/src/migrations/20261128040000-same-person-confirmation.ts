import { type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * "This is me": the owner of a photo the same-person check flagged overrules it. Who and when are
 * kept on the photo; the photo then counts toward training (photos.usable) for as long as the
 * same-person check is its only failed check, however often the set is judged again.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('photos')
    .addColumn('same_person_confirmed_at', 'timestamptz')
    .addColumn('same_person_confirmed_by', 'uuid', (col) =>
      col.references('users.id').onDelete('set null'),
    )
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema
    .alterTable('photos')
    .dropColumn('same_person_confirmed_by')
    .dropColumn('same_person_confirmed_at')
    .execute();
}
