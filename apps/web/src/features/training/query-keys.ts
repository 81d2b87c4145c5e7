/** The training feature's query keys. */
export const trainingKeys = {
  all: () => ['training'] as const,
  /** The user's training jobs, newest first. */
  jobs: () => [...trainingKeys.all(), 'jobs'] as const,
  /** Every single-job view. */
  anyJob: () => [...trainingKeys.all(), 'job'] as const,
  /** One job, by the id in the address: the job's own id or its upload session's. */
  job: (id: string) => [...trainingKeys.anyJob(), id] as const,
  /** The user's models (GET /api/v1/upload/user-models). */
  userModels: () => ['models', 'user'] as const,
};
