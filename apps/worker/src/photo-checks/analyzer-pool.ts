import { Piscina } from 'piscina';
import { PhotoUnreadableError, type PhotoAnalyzer } from './analyze-photo.js';
import type { ThreadAnalysis } from './analyzer-thread.js';
import type { PhotoAnalysis } from './types.js';

// Built, the thread's module sits beside this one as .js; run from source (tests, tsx) a small
// module loads the .ts file through tsx.
const THREAD_MODULE = new URL(
  import.meta.url.endsWith('.ts') ? './analyzer-thread-from-source.mjs' : './analyzer-thread.js',
  import.meta.url,
);

/**
 * Photo checks on worker threads, one photo per thread at a time: TensorFlow.js's WASM backend
 * runs on the thread that loaded it, so one thread keeps only one core busy. A thread that dies
 * fails only the photo it had (its job is retried) and is replaced.
 */
export class PhotoAnalyzerPool implements Pick<PhotoAnalyzer, 'analyzePhoto'> {
  private readonly pool: Piscina<string, ThreadAnalysis>;

  constructor(readonly threads: number) {
    this.pool = new Piscina({
      filename: THREAD_MODULE.href,
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker: 1,
      // The models take seconds to load: threads live as long as the pool.
      idleTimeout: Number.POSITIVE_INFINITY,
    });
  }

  /** Resolves once every thread has loaded its models; throws if they cannot load. */
  async ready(): Promise<void> {
    const loaded = new Set<number>();
    // A thread that loaded first may answer several of a round: ask again until each answered.
    while (loaded.size < this.threads) {
      const answers = await Promise.all(
        Array.from({ length: this.threads }, () => this.pool.run('', { name: 'ready' })),
      );
      for (const id of answers) loaded.add(id as unknown as number);
    }
  }

  async analyzePhoto(file: string): Promise<PhotoAnalysis> {
    return (await this.analyzeOnThread(file)).analysis;
  }

  /** The analysis and the thread that made it. */
  async analyzeOnThread(file: string): Promise<{ threadId: number; analysis: PhotoAnalysis }> {
    const answer = await this.pool.run(file);
    if ('unreadable' in answer) throw new PhotoUnreadableError(answer.unreadable);
    return answer;
  }

  /** The live threads (to stop one the way a crash would, in tests). */
  liveThreads() {
    return this.pool.threads;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
