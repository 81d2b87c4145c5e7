// The shared setup: a migrated template database per run and the Redis URL, for inject().
export { default } from '@studioshot/db/vitest-global-setup';
