import {
  JOB_NAMES,
  QUEUES,
  ZCheckPhotoJobSchema,
  ZRejudgePhotoSetJobSchema,
  type CheckPhotoJob,
} from '@studioshot/contracts';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** The producer side of the background jobs: payloads are validated before they leave. */
export class JobQueueRepository {
  private readonly photoChecks: Queue;

  constructor(connection: Redis, prefix: string) {
    this.photoChecks = new Queue(QUEUES.photoChecks, {
      connection,
      prefix,
      defaultJobOptions: {
        attempts: 3,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 3600, count: 1000 },
        removeOnFail: { age: 24 * 3600 },
      },
    });
  }

  /** One job per photo; the photo id as job id makes a repeated enqueue a no-op. */
  async enqueuePhotoCheck(job: CheckPhotoJob): Promise<void> {
    const payload = ZCheckPhotoJobSchema.parse(job);
    await this.photoChecks.add(JOB_NAMES.checkPhoto, payload, {
      jobId: `photo-${payload.photo_id}`,
    });
  }

  /** Re-judges a set after a photo left it; a burst of removals needs only one run. */
  async enqueueSetRejudge(sessionId: string): Promise<void> {
    const payload = ZRejudgePhotoSetJobSchema.parse({ session_id: sessionId });
    await this.photoChecks.add(JOB_NAMES.rejudgePhotoSet, payload, {
      jobId: `rejudge-${sessionId}-${Math.floor(Date.now() / 1000)}`,
    });
  }

  /** The queued check of a photo, if any (for status pages and tests). */
  async photoCheckJob(photoId: string): Promise<{ data: unknown; state: string } | undefined> {
    const job = await this.photoChecks.getJob(`photo-${photoId}`);
    return job ? { data: job.data as unknown, state: await job.getState() } : undefined;
  }

  async close(): Promise<void> {
    await this.photoChecks.close();
  }
}
