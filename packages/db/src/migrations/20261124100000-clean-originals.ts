import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Stored originals are kept without metadata (no EXIF, so no GPS position) and upright. Originals
 * stored before that are cleaned once by the migrate CLI; this marks which are done. New uploads
 * write true; the default is false so a row written by an older API version is cleaned too.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('photos')
    .addColumn('original_clean', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // The cleanup finds what is left without reading the whole table.
  await db.schema
    .createIndex('photos_original_not_clean_idx')
    .on('photos')
    .column('id')
    .where(sql.ref('original_clean'), '=', false)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropIndex('photos_original_not_clean_idx').ifExists().execute();
  await db.schema.alterTable('photos').dropColumn('original_clean').execute();
}
