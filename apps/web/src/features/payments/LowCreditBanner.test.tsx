import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { LowCreditBanner } from './LowCreditBanner';

function renderBanner(credits: number, onDismiss?: () => void) {
  const router = createMemoryRouter([
    { path: '/', element: <LowCreditBanner credits={credits} onDismiss={onDismiss} /> },
  ]);
  render(<RouterProvider router={router} />);
}

describe('LowCreditBanner', () => {
  it('0 credits: Out of Credits! with Buy Credits Now to /credits and no Dismiss', () => {
    renderBanner(0, vi.fn());
    expect(screen.getByRole('heading', { name: 'Out of Credits!' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Buy Credits Now' }).getAttribute('href')).toBe(
      '/credits',
    );
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
  });

  it('1-2 credits: Almost Out of Credits! with Get More Credits and Dismiss', () => {
    const onDismiss = vi.fn();
    renderBanner(2, onDismiss);
    expect(screen.getByRole('heading', { name: 'Almost Out of Credits!' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get More Credits' }).getAttribute('href')).toBe(
      '/credits',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onDismiss).toHaveBeenCalledOnce();
  });

  it('3-5 credits: Running Low on Credits; no Dismiss without a close handler', () => {
    renderBanner(4);
    expect(screen.getByRole('heading', { name: 'Running Low on Credits' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View Credit Packages' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
  });

  it('is hidden above 5 credits', () => {
    renderBanner(6, vi.fn());
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
