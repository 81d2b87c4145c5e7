export * from './errors.js';
export * from './messages.js';
export * from './auth.js';
export * from './health.js';
export * from './payments.js';
export * from './upload.js';
export * from './jobs.js';
