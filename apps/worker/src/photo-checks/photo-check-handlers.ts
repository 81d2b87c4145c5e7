import { JOB_NAMES } from '@studioshot/contracts';
import type { Db } from '@studioshot/db';
import type { Storage } from '@studioshot/storage';
import type { PhotoAnalyzer } from './index.js';
import { checkPhoto, markCheckFailed, rejudgePhotoSet } from './check-photo.js';
import type { JobHandler } from '../jobs/registry.js';

export interface PhotoCheckHandlerDeps {
  db: Db;
  storage: Storage;
  /** Where photos are analysed: the worker's photo-check threads. */
  analyzer: Pick<PhotoAnalyzer, 'analyzePhoto'>;
}

export function photoCheckHandlers({ db, storage, analyzer }: PhotoCheckHandlerDeps): {
  [JOB_NAMES.checkPhoto]: JobHandler<typeof JOB_NAMES.checkPhoto>;
  [JOB_NAMES.rejudgePhotoSet]: JobHandler<typeof JOB_NAMES.rejudgePhotoSet>;
} {
  return {
    [JOB_NAMES.checkPhoto]: {
      run: (payload, { logger }) => checkPhoto({ db, storage, analyzer, logger }, payload),
      // After the last attempt the photo is reported as failed, never left "checking" forever.
      failedForGood: (payload) => markCheckFailed(db, payload),
    },
    [JOB_NAMES.rejudgePhotoSet]: { run: (payload) => rejudgePhotoSet(db, payload) },
  };
}
