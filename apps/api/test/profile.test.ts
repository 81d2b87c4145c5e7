import { ZUserSchema } from '@studioshot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerUser, type TestApp } from './helpers.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t, { name: 'Katherine Johnson' })).tokens.access_token;
});
afterAll(() => t.close());

const get = () => t.request.get('/api/v1/users/profile').set(bearer(token));
const patch = (body: unknown) =>
  t.request
    .patch('/api/v1/users/profile')
    .set(bearer(token))
    .send(body as object);

describe('GET /api/v1/users/profile', () => {
  it('answers every field of the spec', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const user = ZUserSchema.parse(res.body);
    for (const field of [
      'name',
      'full_name',
      'first_name',
      'email',
      'id',
      'plan_type',
      'training_limit',
      'models_trained',
      'gender',
      'age',
      'credits_balance',
      'subscription_interval',
      'total_generations',
    ]) {
      expect(res.body).toHaveProperty(field);
    }
    expect(user.first_name).toBe('Katherine');
  });
});

describe('PATCH /api/v1/users/profile', () => {
  it('sets gender and age, and clears age with null', async () => {
    const res = await patch({ gender: 'female', age: 42 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ gender: 'female', age: 42 });
    expect((await get()).body).toMatchObject({ gender: 'female', age: 42 });
    expect((await patch({ age: null })).body.age).toBeNull();
    expect((await patch({ age: 18 })).body.age).toBe(18);
    expect((await patch({ age: 100 })).body.age).toBe(100);
  });

  it.each([
    [{ gender: 'other' }, 'gender'],
    [{ gender: 'MALE' }, 'gender'],
    [{ age: 17 }, 'Age must be between 18 and 100'],
    [{ age: 101 }, 'Age must be between 18 and 100'],
    [{ age: 30.5 }, 'Age must be a whole number'],
    [{ age: '30' }, 'Age must be a number'],
    [{ plan_type: 'premium' }, 'plan_type'],
    [{ credits_balance: 1000 }, 'credits_balance'],
  ])('refuses %j with 422 and changes nothing', async (body, message) => {
    await patch({ gender: 'male', age: 30 }).expect(200);
    const res = await patch(body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.detail).toContain(message);
    expect((await get()).body).toMatchObject({
      gender: 'male',
      age: 30,
      plan_type: 'free',
      credits_balance: 0,
    });
  });
});
