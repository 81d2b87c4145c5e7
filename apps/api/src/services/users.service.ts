import type { ProfileUpdateRequest, User as UserDto } from '@studioshot/contracts';
import { MESSAGES } from '@studioshot/contracts';
import type { User } from '@studioshot/db';
import { AppError } from '../errors.js';
import type { UsersRepository } from '../repositories/users.repository.js';

/** The User entity of the spec, derived from the row. */
export function toUserDto(user: User): UserDto {
  const name = user.name.trim();
  return {
    id: user.id,
    email: user.email,
    name,
    full_name: name,
    first_name: name.split(/\s+/)[0] ?? name,
    plan_type: user.plan_type,
    subscription_interval: user.subscription_interval,
    training_limit: user.training_limit,
    models_trained: user.models_trained,
    credits_balance: user.credits_balance,
    total_generations: user.total_generations,
    gender: user.gender,
    age: user.age,
    is_debug: user.is_debug,
    ...(user.role === 'admin' ? { is_admin: true as const } : {}),
    created_at: user.created_at.toISOString(),
  };
}

export class UsersService {
  /**
   * The answer for each row the profile cache holds: a cached row is one object until a change
   * replaces it, so its answer is built once, not on every read.
   */
  private readonly answers = new WeakMap<User, UserDto>();

  constructor(private readonly users: UsersRepository) {}

  async getProfile(userId: string): Promise<UserDto> {
    const user = await this.users.findByIdForDisplay(userId);
    // A valid token for a deleted account (or one being deleted) is no session at all.
    if (!user || user.deletion_requested_at)
      throw new AppError('unauthorized', MESSAGES.authRequired);
    let answer = this.answers.get(user);
    if (!answer) {
      answer = Object.freeze(toUserDto(user));
      this.answers.set(user, answer);
    }
    return answer;
  }

  async updateProfile(userId: string, changes: ProfileUpdateRequest): Promise<UserDto> {
    const user = await this.users.update(userId, changes);
    if (!user) throw new AppError('unauthorized', MESSAGES.authRequired);
    return toUserDto(user);
  }
}
