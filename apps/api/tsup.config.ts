import { defineConfig } from 'tsup';

// One bundle per entry; workspace packages are TypeScript sources, so they are bundled in.
export default defineConfig({
  entry: {
    main: 'src/main.ts',
    migrate: 'src/cli/migrate.ts',
    'schema-ready': 'src/cli/schema-ready.ts',
    seed: 'src/cli/seed.ts',
    admin: 'src/cli/admin.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  clean: true,
  // Workspace packages are bundled in; their own dependencies stay external, so the app must
  // declare them too (pg, kysely, the AWS SDK ...).
  noExternal: [/^@studioshot\//],
});
