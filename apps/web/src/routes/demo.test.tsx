import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, stubApi } from '../test/app-harness';
import { DEMO_GENERATING_MS } from './demo';
import { TRANSFORM_MS } from './old-demo';

beforeEach(() => {
  stubApi({});
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the page's timers run as far as `ms` (fake timers: nothing really waits). */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('/demo', () => {
  it('three styles; Try FREE Demo generates for 2 seconds, then three real samples and the CTAs', async () => {
    renderApp('/demo');
    const picker = await screen.findByRole('group', { name: 'Choose a style' });
    const radios = within(picker).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')!.textContent)).toEqual([
      expect.stringContaining('Professional Executive'),
      expect.stringContaining('Creative Professional'),
      expect.stringContaining('Smart Casual'),
    ]);
    fireEvent.click(within(picker).getByLabelText(/Smart Casual/));

    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Try FREE Demo' }));
    expect(screen.getByText('Generating your Smart Casual headshots...')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Demo generation' })).toBeTruthy();
    await advance(DEMO_GENERATING_MS - 1);
    expect(screen.queryByRole('heading', { name: 'Your Smart Casual samples' })).toBeNull();
    await advance(1);

    expect(screen.getByRole('heading', { name: 'Your Smart Casual samples' })).toBeTruthy();
    const samples = screen.getAllByRole('img', { name: /^Smart Casual sample \d/ });
    expect(samples.map((img) => img.getAttribute('src'))).toEqual([
      '/templates/prof_14.jpg',
      '/templates/prof_20.jpg',
      '/templates/prof_60.jpg',
    ]);
    expect(
      screen.getByRole('link', { name: 'Train Your Personal Model' }).getAttribute('href'),
    ).toBe('/upload');
    expect(
      screen.getByRole('link', { name: 'Generate with Base Models' }).getAttribute('href'),
    ).toBe('/generate');

    fireEvent.click(screen.getByRole('button', { name: 'Try Another Style' }));
    expect(screen.getByRole('button', { name: 'Try FREE Demo' })).toBeTruthy();
  });
});

describe('/old-demo', () => {
  it('Transform Now shows Processing... for 3 seconds, then the next sample', async () => {
    const router = renderApp('/old-demo');
    expect(
      await screen.findByRole('heading', { name: 'From everyday photo to professional headshot' }),
    ).toBeTruthy();
    expect(screen.getByRole('img', { name: /After: Professional Executive/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Back to Home' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe('/auth');
    for (const link of screen.getAllByRole('link', { name: /See Pricing|Transform My Photos/ }))
      expect(link.getAttribute('href')).toBe('/pricing');

    vi.useFakeTimers();
    for (const next of ['Creative Professional', 'Corporate Headshot', 'Professional Executive']) {
      fireEvent.click(screen.getByRole('button', { name: 'Transform Now' }));
      const busy = screen.getByRole('button', { name: 'Processing...' });
      expect((busy as HTMLButtonElement).disabled).toBe(true);
      await advance(TRANSFORM_MS - 1);
      expect(screen.getByRole('button', { name: 'Processing...' })).toBeTruthy();
      await advance(1);
      expect(screen.getByRole('img', { name: new RegExp(`After: ${next}`) })).toBeTruthy();
    }
    vi.useRealTimers();
    await waitFor(() => expect(router.state.location.pathname).toBe('/old-demo'));
  });
});
