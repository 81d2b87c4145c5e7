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
    const signup = (storedRedirect: string | null, urlRedirect: string | null) =>
      postSignupTarget({ storedRedirect, urlRedirect });
    expect(signup(null, null)).toBe('/dashboard');
    expect(signup(null, '/payment?type=training')).toBe('/payment?type=training');
  });

  it('after signup, sends the visitor on to the page they were going to', () => {
    const signup = (storedRedirect: string | null) =>
      postSignupTarget({ storedRedirect, urlRedirect: '/credits' });
    expect(signup('/pricing')).toBe('/pricing');
    expect(signup('/upload?session=1')).toBe('/upload?session=1');
    expect(signup('/')).toBe('/credits');
    expect(signup('/auth?mode=signup')).toBe('/credits');
    expect(signup('//evil.test')).toBe('/credits');
  });

  it('refuses redirects to other sites', () => {
    expect(safeRedirect('https://evil.test')).toBeNull();
    expect(safeRedirect('//evil.test')).toBeNull();
    expect(safeRedirect('/\\evil.test')).toBeNull();
    expect(postSignupTarget({ storedRedirect: null, urlRedirect: '//evil.test' })).toBe(
      '/dashboard',
    );
  });
});
