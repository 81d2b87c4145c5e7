import type { ModelDeletion } from '@studioshot/contracts/deletion';
import { ZModelDeletionSchema } from '@studioshot/contracts/deletion';
import { MESSAGES } from '@studioshot/contracts/messages';
import { api } from '../../lib/api';
import { queryClient } from '../../lib/query-client';
import type { TrainingJob, UserModel } from './training-api';
import { trainingKeys } from './query-keys';

/**
 * DELETE /api/v1/models/{id}: the model, its files and every headshot made with it. `deleted`
 * once gone; `deleting` while a worker is still stopping its training (it goes a moment later).
 */
export function deleteModel(id: string): Promise<ModelDeletion> {
  return api.delete(`/api/v1/models/${encodeURIComponent(id)}`, {
    schema: ZModelDeletionSchema,
    invalid: MESSAGES.modelDeleteFailed,
  });
}

/** The model leaves the lists the dashboard shows at once; the next reads confirm it. */
export function forgetModel(id: string): void {
  queryClient.setQueryData<UserModel[]>(trainingKeys.userModels(), (list) =>
    list?.filter((model) => model.id !== id),
  );
  queryClient.setQueryData<TrainingJob[]>(trainingKeys.jobs(), (list) =>
    list?.filter((job) => job.id !== id),
  );
}
