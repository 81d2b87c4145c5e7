import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SocialProof } from '@studioshot/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp, stubApi } from '../../test/app-harness';

const CONFIGURED: SocialProof = {
  rating: 4.6,
  rating_count: 312,
  source: 'Trustpilot, November 2026',
  development_default: false,
};
const NOTHING: SocialProof = {
  rating: null,
  rating_count: null,
  source: null,
  development_default: false,
};

function serve(proof: SocialProof) {
  stubApi({ 'GET /api/v1/social-proof': () => [200, proof] });
}

async function landingLoaded() {
  await screen.findByRole('button', { name: 'Start Creating' });
  await screen.findByRole('heading', { name: 'Executive' });
}

describe('the rating and count come from the server, each with its source', () => {
  it('landing: the configured rating in the hero, the list and the reasons, with the source', async () => {
    serve(CONFIGURED);
    renderApp('/');
    await landingLoaded();
    const glance = screen.getByRole('region', { name: 'At a glance' });
    expect(await within(glance).findByText('4.6/5')).toBeTruthy();
    expect(within(glance).getByText('from 312+ professionals')).toBeTruthy();
    expect(screen.getByText(/4\.6\/5 from 312\+ professionals/)).toBeTruthy();
    expect(screen.getAllByText(/Source: Trustpilot, November 2026/).length).toBe(2);
    expect(screen.getByRole('heading', { name: 'Trusted by professionals' })).toBeTruthy();
    expect(screen.getByText(/Rated 4\.6\/5 by 312\+ professionals/)).toBeTruthy();
  });

  it('landing: none set, no rating and no count anywhere, and no gap where they were', async () => {
    serve(NOTHING);
    renderApp('/');
    await landingLoaded();
    const glance = screen.getByRole('region', { name: 'At a glance' });
    expect(await within(glance).findByText('pixels per headshot')).toBeTruthy();
    // Still four claims, so the four-column list has no hole.
    expect(glance.querySelectorAll('dd')).toHaveLength(4);
    expect(screen.queryByRole('heading', { name: 'Trusted by professionals' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Your photos stay yours' })).toBeTruthy();
    const reasons = screen.getByRole('heading', { name: 'Your photos stay yours' }).closest('ul')!;
    expect(reasons.querySelectorAll('li')).toHaveLength(6);
    expect(document.body.textContent).not.toMatch(
      /\/5\b|professionals\b.*\+|\+ professionals|Source:/,
    );
    expect(document.body.textContent).not.toMatch(/★/);
  });

  it('landing: a failed call quotes nothing', async () => {
    stubApi({ 'GET /api/v1/social-proof': () => [503, { detail: 'down' }] });
    renderApp('/');
    await landingLoaded();
    expect(document.body.textContent).not.toMatch(/\+ professionals|Source:/);
  });

  it('development defaults say they are sample figures', async () => {
    serve({
      rating: 4.9,
      rating_count: 2847,
      source: 'Sample figures (development default, not a real rating)',
      development_default: true,
    });
    renderApp('/');
    await landingLoaded();
    expect(
      (await screen.findAllByText(/Source: Sample figures \(development default/)).length,
    ).toBeGreaterThan(0);
  });

  it('/auth: the showcase quotes the configured figures, and only the delivered facts without', async () => {
    serve(CONFIGURED);
    renderApp('/auth');
    const showcase = await screen.findByRole('complementary', { name: 'About Studioshot' });
    expect(
      await within(showcase).findByText(
        'Rated 4.6/5 by 312+ professionals · 60 studio styles · 1024x1024 headshots',
      ),
    ).toBeTruthy();
    expect(within(showcase).getByText('Source: Trustpilot, November 2026')).toBeTruthy();
  });

  it('/auth without figures', async () => {
    serve(NOTHING);
    renderApp('/auth');
    const showcase = await screen.findByRole('complementary', { name: 'About Studioshot' });
    expect(within(showcase).getByText('60 studio styles · 1024x1024 headshots')).toBeTruthy();
    expect(within(showcase).queryByText(/Source:/)).toBeNull();
  });

  it('/old-demo: the count when set, a plain line when not', async () => {
    serve(CONFIGURED);
    renderApp('/old-demo');
    expect(
      await screen.findByText(/Join 312\+ professionals who upgraded their profile photo/),
    ).toBeTruthy();
    expect(screen.getByText('Source: Trustpilot, November 2026')).toBeTruthy();
  });

  it('/old-demo without figures', async () => {
    serve(NOTHING);
    renderApp('/old-demo');
    expect(
      await screen.findByText('See how one everyday photo becomes a studio headshot.'),
    ).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/professionals|Source:/);
  });
});

/** Every file the web app ships from: its sources (tests aside), index.html and public/. */
function shippedFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return shippedFiles(file);
    return /\.test\.tsx?$|[\\/]test[\\/]/.test(file) ? [] : [file];
  });
}

describe('no page carries a rating or count of its own', () => {
  it("the spec's sample figures appear in no source the web app ships", () => {
    const root = path.resolve(__dirname, '../../..');
    const files = [
      path.join(root, 'index.html'),
      ...shippedFiles(path.join(root, 'src')),
      ...shippedFiles(path.join(root, 'public')),
    ];
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      if (/\.(png|jpe?g|webp|ico|woff2?)$/.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/4\.9\s*\/\s*5|2,?847|\brated\s+\d/i);
    }
  });
});
