import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToasts, toast } from '../../lib/toast';
import { renderApp, signIn, stubApi } from '../../test/app-harness';

/** The bar as a phone or tablet lays it out (below the large breakpoint), or as a desktop does. */
function screenIs(narrow: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: narrow && query.includes('64rem'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

afterEach(() => vi.unstubAllGlobals());

async function openSignedIn() {
  signIn();
  stubApi({});
  const router = renderApp('/privacy');
  const nav = await screen.findByRole('navigation', { name: 'Main' });
  await within(nav).findByRole('button', { name: 'Menu' });
  return { nav, router };
}

const SIGNED_IN_PAGES = [
  ['Pricing', '/pricing'],
  ['Dashboard', '/dashboard'],
  ['Gallery', '/gallery'],
  ['Billing', '/billing'],
  ['Account settings', '/settings'],
] as const;

describe('the header, signed in', () => {
  it('lists every page in a row for wide screens, the account link named with its visible word', async () => {
    const { nav } = await openSignedIn();
    const row = within(nav).getAllByRole('list')[0]!;
    const links = within(row).getAllByRole('link');
    expect(
      links.map((link) => [
        link.getAttribute('aria-label') ?? link.textContent,
        link.getAttribute('href'),
      ]),
    ).toEqual(SIGNED_IN_PAGES);
    // WCAG 2.5.3: the name begins with the word shown.
    expect(within(row).getByRole('link', { name: 'Account settings' }).textContent).toBe('Account');
  });

  it('Menu opens the same pages; Escape or a choice closes it', async () => {
    const { nav, router } = await openSignedIn();
    const menu = within(nav).getByRole('button', { name: 'Menu' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    const list = document.getElementById(menu.getAttribute('aria-controls')!)!;
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual(SIGNED_IN_PAGES);

    // Escape closes it and gives the focus back to the button.
    within(list).getByRole('link', { name: 'Gallery' }).focus();
    fireEvent.keyDown(list, { key: 'Escape' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);

    // A choice goes there and closes it.
    fireEvent.click(menu);
    fireEvent.click(within(nav).getAllByRole('link', { name: 'Gallery' }).at(-1)!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/gallery'));
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('notifications in the header', () => {
  it('are shown one at a time, the newest, with a Dismiss button', async () => {
    screenIs(false);
    await openSignedIn();
    const region = screen.getByRole('region', { name: 'Notifications' });
    act(() => {
      toast.success('Profile saved');
      toast.info('12 photos uploaded');
    });
    expect(within(region).getByText('12 photos uploaded')).toBeTruthy();
    expect(within(region).queryByText('Profile saved')).toBeNull();
    fireEvent.click(within(region).getByRole('button', { name: 'Dismiss notification' }));
    // The one under it shows again while it has time left.
    expect(await within(region).findByText('Profile saved')).toBeTruthy();
  });

  it('on a narrow screen wait while the keyboard is on the bar, and go on when it leaves', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      screenIs(true);
      const { nav } = await openSignedIn();
      const region = screen.getByRole('region', { name: 'Notifications' });
      const menu = within(nav).getByRole('button', { name: 'Menu' });
      act(() => menu.focus());
      act(() => void toast.success('Headshot saved.'));
      // Not shown over the focused bar, and its time does not run.
      expect(within(region).queryByText('Headshot saved.')).toBeNull();
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      expect(getToasts().map((t) => t.message)).toEqual(['Headshot saved.']);

      act(() => menu.blur());
      expect(within(region).getByText('Headshot saved.')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(6_000));
      expect(getToasts()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('on a wide screen show beside the links, focus there or not', async () => {
    screenIs(false);
    const { nav } = await openSignedIn();
    const region = screen.getByRole('region', { name: 'Notifications' });
    act(() => within(nav).getAllByRole('link', { name: 'Dashboard' })[0]!.focus());
    act(() => void toast.info('Saved'));
    expect(within(region).getByText('Saved')).toBeTruthy();
  });
});
