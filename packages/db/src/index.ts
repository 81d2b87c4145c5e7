export * from './schema.js';
export * from './client.js';
export { migrateToLatest, pendingMigrations } from './migrate.js';
export * from './task-store.js';
export * from './credit-ledger.js';
export * from './models.js';
