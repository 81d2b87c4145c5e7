import { ZProfileUpdateRequestSchema, ZUserSchema } from '@studioshot/contracts';
import type { DeclaringRouter } from '../http/declare.js';
import type { UsersService } from '../services/users.service.js';

export function usersRoutes(api: DeclaringRouter, users: UsersService): void {
  api.route(
    {
      method: 'get',
      path: '/api/v1/users/profile',
      summary: 'The signed-in user',
      tag: 'users',
      auth: 'required',
      responses: { 200: ZUserSchema },
    },
    ({ userId }) => users.getProfile(userId),
  );

  api.route(
    {
      method: 'patch',
      path: '/api/v1/users/profile',
      summary: 'Update gender, age or name',
      tag: 'users',
      auth: 'required',
      body: ZProfileUpdateRequestSchema,
      responses: { 200: ZUserSchema },
    },
    ({ userId, body }) => users.updateProfile(userId, body),
  );
}
