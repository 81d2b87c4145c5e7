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
} from '@studioshot/contracts';
import { z } from 'zod';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

interface RouteDoc {
  method: Method;
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  /** Component names, registered below. */
  body?: string;
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
      ...(route.body ? { requestBody: { required: true, content: ref(route.body) } } : {}),
      responses: {
        [route.status ?? 200]: { description: 'Success', content: ref(route.response) },
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
