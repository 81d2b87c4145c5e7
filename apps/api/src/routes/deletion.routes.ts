import {
  MESSAGES,
  ZAccountDeletionSchema,
  ZDeleteAccountRequestSchema,
  ZModelDeletionSchema,
  ZPhotoSetDeletionSchema,
} from '@studioshot/contracts';
import { z } from 'zod';
import { reply, type DeclaringRouter } from '../http/declare.js';
import { callerOf } from '../middleware/auth.js';
import type { AccountDeletionService } from '../services/account-deletion.service.js';
import type { ModelDeletionService } from '../services/model-deletion.service.js';
import type { PhotoSetDeletionService } from '../services/photo-set-deletion.service.js';

/** A malformed id names nothing: answered like a missing one. */
const idParams = z.object({ id: z.uuid() });

export function deletionRoutes(
  api: DeclaringRouter,
  deps: {
    models: ModelDeletionService;
    photoSets: PhotoSetDeletionService;
    accounts: AccountDeletionService;
  },
): void {
  api.route(
    {
      method: 'delete',
      path: '/api/v1/models/:id',
      summary: 'Delete a model, its files and every headshot made with it',
      description:
        "Its queued or running training and generations are cancelled first (a running one is stopped on its worker; a generation's credits come back), then its files (model, preview, checkpoints), the images and thumbnails of every generation made from it, and its rows. The training slot it used is not given back. 200 once it is gone, within 8 s (inside the spec client's 10 s timeout); otherwise 202 while a worker is still stopping its work (it goes a moment later).",
      tag: 'training',
      auth: 'required',
      params: idParams,
      notFound: { params: MESSAGES.modelNotFound },
      responses: {
        200: { schema: ZModelDeletionSchema, description: 'Deleted' },
        202: { schema: ZModelDeletionSchema, description: 'Being deleted: its work is stopping' },
      },
    },
    async ({ userId, params }) => {
      const deletion = await deps.models.request(userId, params.id);
      return deletion.status === 'deleted' ? deletion : reply(202, deletion);
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/v1/upload/sessions/:id',
      summary: 'Delete a photo set: every photo, every copy of it, and the session',
      description:
        "Before or after training. Refused (409) while a training from the set has not finished. Models trained from it keep working. 200 once gone, within 8 s (inside the spec client's 10 s timeout); otherwise 202 while it is still going.",
      tag: 'upload',
      auth: 'required',
      params: idParams,
      notFound: { params: MESSAGES.sessionNotFound },
      responses: {
        200: { schema: ZPhotoSetDeletionSchema, description: 'Deleted' },
        202: { schema: ZPhotoSetDeletionSchema, description: 'Being deleted' },
      },
      errors: [409],
    },
    async ({ userId, params }) => {
      const deletion = await deps.photoSets.request(userId, params.id);
      return deletion.status === 'deleted' ? deletion : reply(202, deletion);
    },
  );

  api.route(
    {
      method: 'delete',
      path: '/api/v1/users/me',
      summary: 'Delete my account and everything about me',
      description:
        "Confirmed with the account's password (a wrong one: 403, nothing changes; guesses are limited like sign-in attempts, then 429 with Retry-After). Every sign-in ends at once (this token included) and nobody can sign in again; a job then deletes the photos, models, images, sessions, tokens, exports and profile from the database, storage and Redis, deletes the customer at the payment provider (cancelling the subscription), and leaves an anonymous row that payments and the credit ledger keep pointing at. The e-mail address can then sign up again as a new account. Answered 202 with the deletion's id: follow it at GET /api/v1/users/deletions/{id}.",
      tag: 'users',
      auth: 'required',
      body: ZDeleteAccountRequestSchema,
      responses: { 202: ZAccountDeletionSchema },
      errors: [403, 429],
    },
    async ({ req, body }) => reply(202, await deps.accounts.request(callerOf(req), body.password)),
  );

  // No bearer token: the deletion signed every session out. The id is random and says nothing.
  api.route(
    {
      method: 'get',
      path: '/api/v1/users/deletions/:id',
      summary: "An account deletion's progress",
      tag: 'users',
      auth: 'none',
      params: idParams,
      notFound: { params: MESSAGES.accountDeletionNotFound },
      responses: { 200: ZAccountDeletionSchema },
    },
    ({ params }) => deps.accounts.status(params.id),
  );
}
