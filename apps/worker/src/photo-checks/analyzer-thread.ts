/**
 * One photo-check thread: its own TensorFlow.js WASM backend and face models (both are per
 * JavaScript thread), loaded when the thread starts, then one photo at a time.
 */
import { threadId } from 'node:worker_threads';
import { createPhotoAnalyzer, PhotoUnreadableError } from './analyze-photo.js';
import type { PhotoAnalysis } from './types.js';

/** What a thread answers; an unreadable photo is an answer, not a thread failure. */
export type ThreadAnalysis =
  { threadId: number; analysis: PhotoAnalysis } | { threadId: number; unreadable: string };

const analyzer = await createPhotoAnalyzer();

/** Answers once this thread's models are loaded (the module's top level has run). */
export function ready(): number {
  return threadId;
}

export default async function analyze(file: string): Promise<ThreadAnalysis> {
  try {
    return { threadId, analysis: await analyzer.analyzePhoto(file) };
  } catch (error) {
    // Errors cross the thread boundary as plain Errors: say which kind this was.
    if (error instanceof PhotoUnreadableError) return { threadId, unreadable: file };
    throw error;
  }
}
