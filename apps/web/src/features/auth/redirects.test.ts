import { describe, expect, it } from 'vitest';
import { postLoginTarget, postSignupTarget, safeRedirect } from './redirects';

describe('post-auth redirects', () => {
  it('sends users with trained models to the dashboard', () => {
    expect(
      postLoginTarget({ modelsTrained: 2, storedRedirect: '/upload', urlRedirect: '/credits' }),
    ).toBe('/dashboard');
  });

  it('prefers the stored redirect, unless it is /, /pricing or /auth', () => {
    const target = (storedRedirect: string | null) =>
      postLoginTarget({ modelsTrained: 0, storedRedirect, urlRedirect: '/credits' });
    expect(target('/upload?x=1')).toBe('/upload?x=1');
    expect(target('/')).toBe('/credits');
    expect(target('/pricing')).toBe('/credits');
    expect(target('/auth?redirect=/x')).toBe('/credits');
    expect(target(null)).toBe('/credits');
  });

  it('falls back to the dashboard', () => {
    expect(postLoginTarget({ modelsTrained: 0, storedRedirect: null, urlRedirect: null })).toBe(
      '/dashboard',
    );
    expect(postSignupTarget(null)).toBe('/dashboard');
    expect(postSignupTarget('/payment?type=training')).toBe('/payment?type=training');
  });

  it('refuses redirects to other sites', () => {
    expect(safeRedirect('https://evil.test')).toBeNull();
    expect(safeRedirect('//evil.test')).toBeNull();
    expect(safeRedirect('/\\evil.test')).toBeNull();
    expect(postSignupTarget('//evil.test')).toBe('/dashboard');
  });
});
