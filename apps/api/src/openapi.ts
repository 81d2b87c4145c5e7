import {
  ZAuthResponseSchema,
  ZErrorSchema,
  ZForgotPasswordRequestSchema,
  ZForgotPasswordResponseSchema,
  ZHealthResponseSchema,
  ZLoginRequestSchema,
  ZLogoutRequestSchema,
  ZMessageResponseSchema,
  ZProfileUpdateRequestSchema,
  ZRefreshRequestSchema,
  ZRefreshResponseSchema,
  ZRegisterRequestSchema,
  ZResetPasswordRequestSchema,
  ZUserSchema,
  ZCancelSubscriptionResponseSchema,
  ZConfirmAdditionalTrainingRequestSchema,
  ZConfirmCreditPackageResponseSchema,
  ZConfirmPaymentResponseSchema,
  ZConfirmRequestSchema,
  ZCreateCreditPackageRequestSchema,
  ZCreateCreditPaymentRequestSchema,
  ZCreateGenerationPaymentRequestSchema,
  ZCreateTrainingPaymentRequestSchema,
  ZCreateTrainingPurchaseRequestSchema,
  ZCreateUpgradeRequestSchema,
  ZPaymentIntentResponseSchema,
  ZPricingResponseSchema,
  ZSubscriptionResponseSchema,
  ZTestCardConfirmRequestSchema,
  ZTestCardConfirmResponseSchema,
  ZCostProjectionSchema,
  ZModelsStatusSchema,
  ZQueueHealthSchema,
  ZQueueOverviewSchema,
  ZQueueSubmitRequestSchema,
  ZQueueTaskSchema,
  ZStartTrainingRequestSchema,
  ZStartTrainingResponseSchema,
  ZTrainingHistoryResponseSchema,
  ZTrainingJobSchema,
  ZTrainingJobsResponseSchema,
  ZUserQueueStatusSchema,
  ZWaitTimeEstimateSchema,
  ZDeleteGeneratedImageResponseSchema,
  ZFavoriteRequestSchema,
  ZFluxGenerateRequestSchema,
  ZGenerateImageFormSchema,
  ZGenerateTrainedRequestSchema,
  ZGeneratedImageSchema,
  ZGeneratedImagesResponseSchema,
  ZGenerationResultSchema,
  ZInferenceGenerateRequestSchema,
  ZQueueGenerationParamsSchema,
  ZStartQueuedGenerationRequestSchema,
  ZStylesResponseSchema,
} from '@studioshot/contracts';
import { z } from 'zod';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

interface RouteDoc {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  /** Optional query parameters (path parameters are read from the path's braces). */
  query?: string[];
  /** Component names, registered below. */
  body?: string;
  /** The body's media type, when not JSON. */
  bodyType?: 'multipart/form-data';
  /** The answer is a JPEG, not JSON. */
  jpeg?: boolean;
  response: string;
  status?: number;
  errors: number[];
}

// Requests are described as clients send them (zod input), responses as we answer (output).
const REQUESTS = {
  RegisterRequest: ZRegisterRequestSchema,
  LoginRequest: ZLoginRequestSchema,
  LogoutRequest: ZLogoutRequestSchema,
  RefreshRequest: ZRefreshRequestSchema,
  ForgotPasswordRequest: ZForgotPasswordRequestSchema,
  ResetPasswordRequest: ZResetPasswordRequestSchema,
  ProfileUpdateRequest: ZProfileUpdateRequestSchema,
  CreateCreditPaymentRequest: ZCreateCreditPaymentRequestSchema,
  CreateCreditPackageRequest: ZCreateCreditPackageRequestSchema,
  CreateTrainingPaymentRequest: ZCreateTrainingPaymentRequestSchema,
  CreateTrainingPurchaseRequest: ZCreateTrainingPurchaseRequestSchema,
  CreateUpgradeRequest: ZCreateUpgradeRequestSchema,
  CreateGenerationPaymentRequest: ZCreateGenerationPaymentRequestSchema,
  ConfirmRequest: ZConfirmRequestSchema,
  ConfirmAdditionalTrainingRequest: ZConfirmAdditionalTrainingRequestSchema,
  TestCardConfirmRequest: ZTestCardConfirmRequestSchema,
  StartTrainingRequest: ZStartTrainingRequestSchema,
  QueueSubmitRequest: ZQueueSubmitRequestSchema,
  QueueGenerationParams: ZQueueGenerationParamsSchema,
  StartQueuedGenerationRequest: ZStartQueuedGenerationRequestSchema,
  GenerateTrainedRequest: ZGenerateTrainedRequestSchema,
  InferenceGenerateRequest: ZInferenceGenerateRequestSchema,
  FluxGenerateRequest: ZFluxGenerateRequestSchema,
  GenerateImageForm: ZGenerateImageFormSchema,
  FavoriteRequest: ZFavoriteRequestSchema,
};
const RESPONSES = {
  Error: ZErrorSchema,
  User: ZUserSchema,
  AuthResponse: ZAuthResponseSchema,
  TokenSet: ZRefreshResponseSchema,
  Message: ZMessageResponseSchema,
  ForgotPasswordResponse: ZForgotPasswordResponseSchema,
  Health: ZHealthResponseSchema,
  Pricing: ZPricingResponseSchema,
  PaymentIntent: ZPaymentIntentResponseSchema,
  ConfirmCreditPackageResponse: ZConfirmCreditPackageResponseSchema,
  ConfirmPaymentResponse: ZConfirmPaymentResponseSchema,
  Subscription: ZSubscriptionResponseSchema,
  CancelSubscriptionResponse: ZCancelSubscriptionResponseSchema,
  TestCardConfirmResponse: ZTestCardConfirmResponseSchema,
  TrainingJob: ZTrainingJobSchema,
  StartTrainingResponse: ZStartTrainingResponseSchema,
  TrainingJobs: ZTrainingJobsResponseSchema,
  TrainingHistory: ZTrainingHistoryResponseSchema,
  ModelsStatus: ZModelsStatusSchema,
  UserQueueStatus: ZUserQueueStatusSchema,
  QueueTask: ZQueueTaskSchema,
  QueueOverview: ZQueueOverviewSchema,
  QueueHealth: ZQueueHealthSchema,
  CostProjection: ZCostProjectionSchema,
  WaitTimeEstimate: ZWaitTimeEstimateSchema,
  Styles: ZStylesResponseSchema,
  GenerationResult: ZGenerationResultSchema,
  GeneratedImage: ZGeneratedImageSchema,
  GeneratedImages: ZGeneratedImagesResponseSchema,
  DeleteGeneratedImageResponse: ZDeleteGeneratedImageResponseSchema,
};
type Component = keyof typeof REQUESTS | keyof typeof RESPONSES;

const ROUTES: (RouteDoc & { body?: Component; response: Component })[] = [
  {
    method: 'get',
    path: '/health',
    summary: 'Service health and version',
    tag: 'system',
    auth: false,
    response: 'Health',
    errors: [503],
  },
  {
    method: 'post',
    path: '/api/v1/auth/register',
    summary: 'Create an account',
    tag: 'auth',
    auth: false,
    body: 'RegisterRequest',
    response: 'AuthResponse',
    status: 201,
    errors: [400, 409, 413, 422],
  },
  {
    method: 'post',
    path: '/api/v1/auth/login',
    summary: 'Sign in',
    tag: 'auth',
    auth: false,
    body: 'LoginRequest',
    response: 'AuthResponse',
    errors: [400, 401, 422, 429],
  },
  {
    method: 'post',
    path: '/api/v1/auth/logout',
    summary: 'Sign out this session',
    tag: 'auth',
    auth: true,
    response: 'Message',
    errors: [401],
  },
  {
    method: 'post',
    path: '/api/v1/auth/refresh',
    summary: 'Rotate the refresh token',
    tag: 'auth',
    auth: false,
    body: 'RefreshRequest',
    response: 'TokenSet',
    errors: [401, 422],
  },
  {
    method: 'post',
    path: '/api/v1/auth/forgot-password',
    summary: 'Send a password reset code',
    tag: 'auth',
    auth: false,
    body: 'ForgotPasswordRequest',
    response: 'ForgotPasswordResponse',
    errors: [422, 429],
  },
  {
    method: 'post',
    path: '/api/v1/auth/reset-password',
    summary: 'Set a new password with a reset code',
    tag: 'auth',
    auth: false,
    body: 'ResetPasswordRequest',
    response: 'Message',
    errors: [400, 422],
  },
  {
    method: 'get',
    path: '/api/v1/users/profile',
    summary: 'The signed-in user',
    tag: 'users',
    auth: true,
    response: 'User',
    errors: [401],
  },
  {
    method: 'patch',
    path: '/api/v1/users/profile',
    summary: 'Update gender, age or name',
    tag: 'users',
    auth: true,
    body: 'ProfileUpdateRequest',
    response: 'User',
    errors: [401, 422],
  },
  ...['/api/v1/training/start', '/models/start-training'].map(
    (path): RouteDoc & { body: Component; response: Component } => ({
      method: 'post',
      path,
      summary: 'Train a model on a completed upload session (takes a training slot)',
      tag: 'training',
      auth: true,
      body: 'StartTrainingRequest',
      response: 'StartTrainingResponse',
      status: 201,
      errors: [401, 403, 404, 409, 422, 503],
    }),
  ),
  {
    method: 'get',
    path: '/api/v1/training/jobs',
    summary: "The user's training jobs, newest first",
    tag: 'training',
    auth: true,
    response: 'TrainingJobs',
    errors: [401],
  },
  {
    method: 'get',
    path: '/api/v1/training/history',
    summary: "The user's training jobs, as training_sessions",
    tag: 'training',
    auth: true,
    response: 'TrainingHistory',
    errors: [401],
  },
  {
    method: 'get',
    path: '/api/v1/training/jobs/{id}',
    summary: 'One training job, by its id or its upload session id',
    tag: 'training',
    auth: true,
    response: 'TrainingJob',
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/models/training-status',
    summary: 'The latest training job, or the one named by training_id',
    tag: 'training',
    auth: true,
    query: ['training_id'],
    response: 'TrainingJob',
    errors: [401, 404],
  },
  {
    method: 'get',
    path: '/models/status',
    summary: "The user's models and their training counts",
    tag: 'training',
    auth: true,
    response: 'ModelsStatus',
    errors: [401],
  },
  {
    method: 'get',
    path: '/api/v1/generation/styles',
    summary: 'The style cards',
    tag: 'generation',
    auth: false,
    response: 'Styles',
    errors: [],
  },
  ...(
    [
      [
        '/api/v1/generation/generate-trained',
        'GenerateTrainedRequest',
        'Generate with a trained model',
      ],
      [
        '/api/v1/inference/generate',
        'InferenceGenerateRequest',
        'Generate (legacy and premium pages)',
      ],
      ['/inference/generate', 'InferenceGenerateRequest', 'Generate (post-payment page)'],
      ['/generation/flux-generate', 'FluxGenerateRequest', 'Generate with engine settings'],
      ['/models/generate-image', 'GenerateImageForm', 'Generate from a form (template_used)'],
    ] as const
  ).map(([path, body, summary]): RouteDoc & { body: Component; response: Component } => ({
    method: 'post',
    path,
    summary: `${summary}: reserves the credits, waits for the images (200), or answers 202 with the generation id and status when the wait runs out; 502 when it failed. Needs an Idempotency-Key header (or idempotency_key field).`,
    tag: 'generation',
    auth: true,
    body,
    ...(path === '/models/generate-image' ? { bodyType: 'multipart/form-data' as const } : {}),
    response: 'GenerationResult',
    errors: [401, 402, 404, 409, 422, 502, 503],
  })),
  {
    method: 'get',
    path: '/models/generated-images',
    summary: "The user's generated images, newest first",
    tag: 'generation',
    auth: true,
    query: ['limit', 'offset'],
    response: 'GeneratedImages',
    errors: [401, 422],
  },
  {
    method: 'post',
    path: '/models/generated-images/{id}/favorite',
    summary: 'Set ({favorite}) or toggle (empty body) the favourite flag',
    tag: 'generation',
    auth: true,
    body: 'FavoriteRequest',
    response: 'GeneratedImage',
    errors: [401, 404, 422],
  },
  {
    method: 'delete',
    path: '/models/generated-images/{id}',
    summary: 'Delete an image (its row and both files)',
    tag: 'generation',
    auth: true,
    response: 'DeleteGeneratedImageResponse',
    errors: [401, 404],
  },
  ...['/images/generated/{id}', '/images/generated/{id}/thumbnail'].map(
    (path): RouteDoc & { body?: Component; response: Component } => ({
      method: 'get',
      path,
      summary: 'A generated image (JPEG), with the short-lived token signed for it',
      tag: 'generation',
      auth: false,
      query: ['token'],
      jpeg: true,
      response: 'GeneratedImage',
      errors: [403, 404],
    }),
  ),
  {
    method: 'get',
    path: '/api/v1/queue/user/status',
    summary: "The user's pending, running and total tasks",
    tag: 'queue',
    auth: true,
    response: 'UserQueueStatus',
    errors: [401],
  },
  {
    method: 'post',
    path: '/api/v1/queue/submit',
    summary:
      'Queue a task: a training, or a generation or batch_generation (params: QueueGenerationParams; Idempotency-Key header)',
    tag: 'queue',
    auth: true,
    body: 'QueueSubmitRequest',
    response: 'QueueTask',
    status: 201,
    errors: [401, 403, 404, 409, 422, 503],
  },
  {
    method: 'post',
    path: '/api/v1/queue/training/start-queued',
    summary: 'Queue a training with a priority',
    tag: 'queue',
    auth: true,
    body: 'StartTrainingRequest',
    response: 'QueueTask',
    status: 201,
    errors: [401, 403, 404, 409, 422, 503],
  },
  {
    method: 'post',
    path: '/api/v1/queue/generation/start-queued',
    summary: 'Queue a generation or batch_generation (credits reserved); answers the task at once',
    tag: 'queue',
    auth: true,
    body: 'StartQueuedGenerationRequest',
    response: 'QueueTask',
    status: 201,
    errors: [401, 402, 404, 409, 422, 503],
  },
  {
    method: 'get',
    path: '/api/v1/queue/status/{id}',
    summary: "One of the user's tasks, with its place in line",
    tag: 'queue',
    auth: true,
    response: 'QueueTask',
    errors: [401, 404],
  },
  {
    method: 'delete',
    path: '/api/v1/queue/cancel/{id}',
    summary: 'Cancel a task that has not started (its training slot comes back)',
    tag: 'queue',
    auth: true,
    response: 'QueueTask',
    errors: [401, 404, 409],
  },
  {
    method: 'get',
    path: '/api/v1/queue/status',
    summary: 'Every task queue: counts, workers, estimated wait',
    tag: 'queue',
    auth: true,
    response: 'QueueOverview',
    errors: [401],
  },
  {
    method: 'get',
    path: '/api/v1/queue/monitor/health',
    summary: 'Queue health: 200 healthy, 503 degraded (same body)',
    tag: 'queue',
    auth: true,
    response: 'QueueHealth',
    errors: [401],
  },
  {
    method: 'get',
    path: '/api/v1/queue/cost/projection',
    summary: 'Monthly GPU cost at the rate the fleet really ran, against an always-on GPU',
    tag: 'queue',
    auth: true,
    response: 'CostProjection',
    errors: [401],
  },
  {
    method: 'get',
    path: '/api/v1/queue/estimate/wait-time/{task_type}/{priority}',
    summary: 'How long a task of this type and priority would wait if submitted now',
    tag: 'queue',
    auth: true,
    response: 'WaitTimeEstimate',
    errors: [401, 404],
  },
];

function components(schemas: Record<string, z.ZodType>, io: 'input' | 'output') {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  return z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }).schemas;
}

function parameters(route: RouteDoc): { parameters?: object[] } {
  const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const inQuery = (route.query ?? []).map((name) => ({
    name,
    in: 'query',
    required: false,
    schema: { type: 'string' },
  }));
  const all = [...inPath, ...inQuery];
  return all.length ? { parameters: all } : {};
}

const ref = (name: Component) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${name}` } },
});

/** The API description (OpenAPI 3.1), generated from the same zod contracts that validate requests. */
export function buildOpenApiDocument(version: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of ROUTES) {
    paths[route.path] ??= {};
    paths[route.path]![route.method] = {
      summary: route.summary,
      tags: [route.tag],
      security: route.auth ? [{ bearer: [] }] : [],
      ...parameters(route),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: route.bodyType
                ? { [route.bodyType]: ref(route.body)['application/json'] }
                : ref(route.body),
            },
          }
        : {}),
      responses: {
        [route.status ?? 200]: {
          description: 'Success',
          content: route.jpeg
            ? { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } }
            : ref(route.response),
        },
        ...Object.fromEntries(
          route.errors.map((status) => [status, { description: 'Error', content: ref('Error') }]),
        ),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Studioshot API', version },
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { ...components(REQUESTS, 'input'), ...components(RESPONSES, 'output') },
    },
  };
}
