// The photo-check thread when the worker runs from its TypeScript source (tests, tsx): a worker
// thread does not inherit the process's TypeScript loader, so it loads the module through tsx.
import { tsImport } from 'tsx/esm/api';

const thread = await tsImport('./analyzer-thread.ts', import.meta.url);
export default thread.default;
export const ready = thread.ready;
