import { describe, expect, it } from 'vitest';
import { failedChecks, photoState, setSummary } from './photo-state';
import { ZProfileSetupFormSchema } from './profile-setup-schema';

describe('photo state', () => {
  it('reads checking, usable, needs attention and unchecked', () => {
    expect(photoState({ check_status: 'pending', usable: null })).toBe('checking');
    expect(photoState({ check_status: 'done', usable: true })).toBe('usable');
    expect(photoState({ check_status: 'done', usable: false })).toBe('attention');
    expect(photoState({ check_status: 'failed', usable: null })).toBe('unchecked');
  });

  it('lists only the failed checks', () => {
    expect(
      failedChecks({
        checks: [
          { id: 'face_found', ok: true, message: 'Face found' },
          { id: 'sharpness', ok: false, message: 'Blurry' },
          { id: 'same_person', ok: null, message: 'Not enough photos to compare yet' },
        ],
      }),
    ).toEqual([{ id: 'sharpness', ok: false, message: 'Blurry' }]);
  });

  it('summarises the set against the 10 usable photos needed', () => {
    const usable = { check_status: 'done' as const, usable: true };
    const photos = [
      ...Array.from({ length: 8 }, () => usable),
      { check_status: 'pending' as const, usable: null },
      { check_status: 'done' as const, usable: false },
    ];
    expect(setSummary(photos)).toEqual({
      uploaded: 10,
      usable: 8,
      checking: 1,
      attention: 1,
      needed: 2,
      ready: false,
    });
    expect(setSummary(Array.from({ length: 11 }, () => usable))).toMatchObject({
      needed: 0,
      ready: true,
    });
  });
});

describe('profile setup form', () => {
  it('requires a gender and takes an optional age of 18-100', () => {
    expect(ZProfileSetupFormSchema.parse({ gender: 'female', age: '' })).toEqual({
      gender: 'female',
      age: null,
    });
    expect(ZProfileSetupFormSchema.parse({ gender: 'male', age: ' 42 ' })).toEqual({
      gender: 'male',
      age: 42,
    });
    const noGender = ZProfileSetupFormSchema.safeParse({ age: '30' });
    expect(noGender.error?.issues[0]?.message).toBe('Please choose male or female');
    for (const age of ['17', '101', '3.5', 'abc', '-20']) {
      const result = ZProfileSetupFormSchema.safeParse({ gender: 'male', age });
      expect(result.error?.issues[0]?.message).toBe('Age must be between 18 and 100');
    }
    expect(ZProfileSetupFormSchema.parse({ gender: 'male', age: '18' }).age).toBe(18);
    expect(ZProfileSetupFormSchema.parse({ gender: 'male', age: '100' }).age).toBe(100);
  });
});
