import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/**
 * Generation: a `generations` row shares its id with its `tasks` row (as a model does with its
 * training task) and says what to render; its images are `generated_images` rows, best first.
 * Models record their artifact format: format 1 (before generation existed) cannot be generated
 * from until it is rebuilt from its photos.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .alterTable('models')
    .addColumn('artifact_format', 'smallint')
    // The 128-d face descriptors of the photos it was trained on: generation ranks its images by
    // their distance to these, without the photos (which retention may purge).
    .addColumn('face_descriptors', 'jsonb')
    .execute();
  // The engine kind that runs a task picks its queue; a model's tasks run on the kind that trained it.
  await db.schema
    .alterTable('tasks')
    .addColumn('engine_kind', 'text', (c) =>
      c
        .notNull()
        .defaultTo('studio')
        .check(sql`engine_kind IN ('studio', 'flux')`),
    )
    .execute();
  await sql`UPDATE tasks SET engine_kind = models.model_type FROM models
    WHERE models.id = tasks.model_id AND models.model_type IN ('studio', 'flux')`.execute(db);
  await sql`UPDATE models SET artifact_format = 1 WHERE artifact_key IS NOT NULL`.execute(db);

  await db.schema
    .createTable('generations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().references('tasks.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('model_id', 'uuid', (c) => c.references('models.id').onDelete('cascade'))
    /** What to render: [{template_id, variant, prompt}], one entry per template of a batch. */
    .addColumn('items', 'jsonb', (c) => c.notNull())
    .addColumn('images_per_item', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(4)
        .check(sql`images_per_item BETWEEN 1 AND 8`),
    )
    .addColumn('size', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1024)
        .check(sql`size BETWEEN 256 AND 2048`),
    )
    .addColumn('seed', 'integer', (c) => c.notNull().check(sql`seed >= 0`))
    /** The client's key for one Generate click: a repeat finds this row instead of a new one. */
    .addColumn('idempotency_key', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('generations_idempotency_key', ['user_id', 'idempotency_key'])
    .execute();
  await db.schema
    .createIndex('generations_user_created_idx')
    .on('generations')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('generated_images')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('generation_id', 'uuid', (c) =>
      c.notNull().references('generations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('model_id', 'uuid', (c) => c.references('models.id').onDelete('set null'))
    /** Rank in its generation, 0 = best identity match. */
    .addColumn('position', 'integer', (c) => c.notNull().check(sql`position >= 0`))
    .addColumn('template_id', 'text')
    .addColumn('variant', 'integer')
    .addColumn('image_key', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    /** 0..1, from the face descriptor's distance to the model's reference photos; null: no face. */
    .addColumn('identity_score', 'real')
    .addColumn('identity_distance', 'real')
    .addColumn('favorite', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('generated_images_position_key', ['generation_id', 'position'])
    .execute();
  await db.schema
    .createIndex('generated_images_user_created_idx')
    .on('generated_images')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.dropTable('generated_images').execute();
  await db.schema.dropTable('generations').execute();
  await db.schema.alterTable('tasks').dropColumn('engine_kind').execute();
  await db.schema
    .alterTable('models')
    .dropColumn('artifact_format')
    .dropColumn('face_descriptors')
    .execute();
}
