import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { buttonClass, cardClass } from '../components/ui';
import { DEMO_PORTRAIT, OLD_DEMO_SAMPLES } from '../features/demo/samples';
import { formatDollars, GENERATION_ORDER, PLANS } from '../features/payments/catalogue';
import {
  professionalsText,
  sourceText,
  useSocialProof,
} from '../features/social-proof/social-proof';

/** How long 'Transform Now' shows 'Processing...' (spec: 3 seconds). */
export const TRANSFORM_MS = 3000;

/**
 * The older marketing demo: a portrait and its transformation into three sample styles, one
 * 'Transform Now' at a time, with the way to pricing.
 */
export function Component() {
  const [shown, setShown] = useState(0);
  const [processing, setProcessing] = useState(false);
  const proof = useSocialProof();
  const professionals = professionalsText(proof);
  const source = professionals ? sourceText(proof) : null;

  useEffect(() => {
    if (!processing) return;
    const timer = setTimeout(() => {
      setProcessing(false);
      setShown((index) => (index + 1) % OLD_DEMO_SAMPLES.length);
    }, TRANSFORM_MS);
    return () => clearTimeout(timer);
  }, [processing]);

  const sample = OLD_DEMO_SAMPLES[shown]!;
  return (
    <section className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <title>From selfie to headshot · Studioshot</title>
      <nav className="flex flex-wrap items-center justify-between gap-3">
        <Link to="/" className={buttonClass('ghost', 'sm')}>
          ← Back to Home
        </Link>
        <Link to="/auth" className={buttonClass('primary', 'sm')}>
          Get Started
        </Link>
      </nav>

      <header className="mt-8 max-w-2xl">
        <h1 className="font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
          From everyday photo to professional headshot
        </h1>
        <p className="mt-3 text-stone-700">
          {professionals
            ? `Join ${professionals} who upgraded their profile photo with Studioshot.`
            : 'See how one everyday photo becomes a studio headshot.'}
          {source && <span className="block text-xs text-stone-600">{source}</span>}
        </p>
      </header>

      <div className="mt-10 grid items-start gap-6 md:grid-cols-2">
        <figure className={`${cardClass} overflow-hidden`}>
          <img
            src={DEMO_PORTRAIT.src}
            alt="Before: the original portrait"
            width={512}
            height={512}
            className="aspect-[8/9] w-full object-cover"
          />
          <figcaption className="px-4 py-3 text-sm text-stone-600">Before: the photo</figcaption>
        </figure>
        <figure className={`${cardClass} relative overflow-hidden`} aria-busy={processing}>
          <img
            src={sample.src}
            alt={`After: ${sample.title} (${sample.templateName})`}
            width={400}
            height={450}
            className={`aspect-[8/9] w-full object-cover transition ${processing ? 'opacity-40 blur-sm' : ''}`}
          />
          {processing && (
            <div
              className="absolute inset-0 flex items-center justify-center"
              role="status"
              aria-live="polite"
            >
              <span className="rounded-full bg-white/90 px-4 py-2 text-sm font-medium text-stone-900 shadow">
                Processing...
              </span>
            </div>
          )}
          <figcaption className="px-4 py-3 text-sm text-stone-600">
            After: <span className="font-medium text-stone-900">{sample.title}</span>
          </figcaption>
        </figure>
      </div>

      <div className="mt-6 flex flex-wrap items-center gap-4">
        <button
          type="button"
          className={buttonClass('primary', 'lg')}
          disabled={processing}
          onClick={() => setProcessing(true)}
        >
          {processing ? 'Processing...' : 'Transform Now'}
        </button>
        <ol className="flex gap-2" aria-label="Samples">
          {OLD_DEMO_SAMPLES.map((s, index) => (
            <li
              key={s.title}
              aria-current={index === shown ? 'step' : undefined}
              className={`rounded-full px-3 py-1 text-xs ${
                index === shown ? 'bg-accent-600 text-white' : 'bg-stone-100 text-stone-600'
              }`}
            >
              {s.title}
            </li>
          ))}
        </ol>
      </div>
      <p className="mt-3 text-xs text-stone-600">
        Samples made by our studio engine. {DEMO_PORTRAIT.credit}.
      </p>

      <div className={`${cardClass} mt-10 flex flex-wrap items-center justify-between gap-4 p-6`}>
        <div>
          <h2 className="font-semibold text-stone-950">Ready for yours?</h2>
          <p className="mt-1 text-sm text-stone-600">
            Plans from {formatDollars(Math.min(...PLANS.map((p) => p.price_cents)))} a month, or{' '}
            {formatDollars(GENERATION_ORDER.price_cents, { compact: true })} once for{' '}
            {GENERATION_ORDER.images} headshots.
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Link to="/pricing" className={buttonClass('primary')}>
            See Pricing
          </Link>
          <Link to="/pricing" className={buttonClass('secondary')}>
            Transform My Photos
          </Link>
        </div>
      </div>
    </section>
  );
}
