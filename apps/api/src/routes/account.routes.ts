import {
  EXPORT_KEPT_HOURS,
  EXPORT_LINK_MINUTES,
  MESSAGES,
  ZChangePasswordRequestSchema,
  ZDataExportListSchema,
  ZDataExportSchema,
  ZPrivacyFactsSchema,
  ZSignInSessionListSchema,
  ZSignOutResponseSchema,
  ZSocialProofSchema,
  type SocialProof,
} from '@studioshot/contracts';
import type { Response } from 'express';
import { z } from 'zod';
import { reply, type DeclaringRouter } from '../http/declare.js';
import { callerOf } from '../middleware/auth.js';
import type { AccountSettingsService } from '../services/account-settings.service.js';
import type { ExportService } from '../services/export.service.js';

const sessionParams = z.object({ id: z.uuid() });
const exportParams = z.object({ id: z.uuid() });

/** The account settings page's calls, and the privacy facts the privacy page states. */
export function accountRoutes(
  api: DeclaringRouter,
  deps: {
    settings: AccountSettingsService;
    exports: ExportService;
    photoRetentionDays: number;
    signInDays: number;
    /** The rating and count the public pages may quote (env.ts socialProof). */
    socialProof: SocialProof;
    /** Streams a stored object to the response. */
    sendStored: (key: string, res: Response) => Promise<void>;
  },
): void {
  const { settings, exports } = deps;

  api.route(
    {
      method: 'get',
      path: '/api/v1/privacy',
      summary: 'What we keep and for how long (the privacy page states these numbers)',
      tag: 'system',
      auth: 'none',
      responses: { 200: ZPrivacyFactsSchema },
    },
    () => ({
      photo_retention_days: deps.photoRetentionDays,
      export_link_minutes: EXPORT_LINK_MINUTES,
      export_kept_hours: EXPORT_KEPT_HOURS,
      sign_in_days: deps.signInDays,
    }),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/social-proof',
      summary:
        'The rating and count of professionals the public pages may quote, with their source',
      description:
        'Not in the contract. Operator settings (SOCIAL_PROOF_RATING, SOCIAL_PROOF_RATING_COUNT, SOCIAL_PROOF_SOURCE); each figure is null when not set, and the pages then quote none. A server outside production with none set answers sample figures marked `development_default`.',
      tag: 'system',
      auth: 'none',
      responses: { 200: ZSocialProofSchema },
    },
    () => deps.socialProof,
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/users/sessions',
      summary: "The account's sign-ins: device, address, started, last used; this one marked",
      tag: 'users',
      auth: 'required',
      responses: { 200: ZSignInSessionListSchema },
    },
    async ({ req }) => ({ sessions: await settings.listSessions(callerOf(req)) }),
  );

  api.route(
    {
      method: 'delete',
      path: '/api/v1/users/sessions/:id',
      summary: 'Sign out one sign-in (this one too, if named): its tokens stop working at once',
      tag: 'users',
      auth: 'required',
      params: sessionParams,
      notFound: { params: MESSAGES.signInNotFound },
      responses: { 200: ZSignOutResponseSchema },
    },
    ({ req, params }) => settings.signOutSession(callerOf(req), params.id),
  );

  api.route(
    {
      method: 'delete',
      path: '/api/v1/users/sessions',
      summary: 'Sign out everywhere: every sign-in of the account, this one included',
      tag: 'users',
      auth: 'required',
      responses: { 200: ZSignOutResponseSchema },
    },
    ({ req }) => settings.signOutEverywhere(callerOf(req)),
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/users/change-password',
      summary: 'Change the password (the current one required); signs out every other sign-in',
      description:
        'Keeps this sign-in. A wrong current password is answered 403; guesses are limited like sign-in attempts (429 with Retry-After).',
      tag: 'users',
      auth: 'required',
      body: ZChangePasswordRequestSchema,
      responses: { 200: ZSignOutResponseSchema },
      errors: [403, 429],
    },
    ({ req, body }) => settings.changePassword(callerOf(req), body),
  );

  api.route(
    {
      method: 'post',
      path: '/api/v1/users/exports',
      summary: "'Download my data': start building the zip (or answer the one being built)",
      description: `A background job builds a zip of your headshots, the photos still held and a JSON of the account, payments, credit ledger and models. Follow it with GET /api/v1/users/exports/{id}; once built, its download_url works for ${EXPORT_LINK_MINUTES} minutes and the zip is deleted ${EXPORT_KEPT_HOURS} hours later.`,
      tag: 'users',
      auth: 'required',
      responses: { 202: ZDataExportSchema },
    },
    async ({ userId }) => reply(202, await exports.request(userId)),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/users/exports',
      summary: 'The latest data exports, newest first',
      tag: 'users',
      auth: 'required',
      responses: { 200: ZDataExportListSchema },
    },
    async ({ userId }) => ({ exports: await exports.list(userId) }),
  );

  api.route(
    {
      method: 'get',
      path: '/api/v1/users/exports/:id',
      summary: "A data export's progress, and its download link once built",
      tag: 'users',
      auth: 'required',
      params: exportParams,
      notFound: { params: MESSAGES.exportNotFound },
      responses: { 200: ZDataExportSchema },
    },
    ({ userId, params }) => exports.get(userId, params.id),
  );

  // No bearer token: a plain link (the browser's own download) carries a token signed for
  // this one export, working for a few minutes.
  api.route(
    {
      method: 'get',
      path: '/api/v1/users/exports/:id/download',
      summary: "A data export's zip, with the short-lived token of its download_url",
      tag: 'users',
      auth: 'none',
      params: exportParams,
      notFound: { params: MESSAGES.exportLinkExpired },
      query: z.object({
        // Anything but one string is no token (and is refused as one).
        token: z
          .string()
          .optional()
          .catch(undefined)
          .describe("The token in the export's `download_url`"),
      }),
      responses: { 200: { description: 'The zip', contentType: 'application/zip' } },
    },
    async ({ res, params, query }) => {
      const { key, filename } = await exports.download(params.id, query.token);
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      res.setHeader('Cache-Control', 'private, no-store');
      await deps.sendStored(key, res);
    },
  );
}
