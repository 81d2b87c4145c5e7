import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, stubApi } from '../../test/app-harness';

describe('route changes', () => {
  it('move focus to the new page heading and announce its title', async () => {
    stubApi({});
    renderApp('/demo');
    const pricingLink = (await screen.findAllByRole('link', { name: 'Pricing' }))[0]!;
    pricingLink.focus();
    fireEvent.click(pricingLink);
    await waitFor(() => expect(document.activeElement?.tagName).toBe('H1'));
    expect(document.activeElement?.getAttribute('tabindex')).toBe('-1');
    await waitFor(() =>
      expect(screen.getByRole('status', { hidden: true }).textContent).not.toBe(''),
    );
  });

  it('leave focus alone on the first load', async () => {
    stubApi({});
    renderApp('/demo');
    await screen.findByRole('heading', { level: 1 });
    expect(document.activeElement).toBe(document.body);
  });
});
