import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Portrait } from '../components/art/Portrait';
import { Spinner } from '../components/PageState';
import { buttonClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';
import { Claim, UNTIMED_CLAIM } from '../features/home/Claim';
import { useGetStarted } from '../features/home/use-get-started';
import { PLANS_FROM } from '../features/home/starting-price';
import {
  professionalsText,
  ratingText,
  sourceText,
  useSocialProof,
} from '../features/social-proof/social-proof';
import { bestName } from '../lib/display-name';

// What depends on the wait-time estimate (the time to results, why choose us) and the sections
// below it: fetched after the first paint, below the fold, so the page's first JS stays small.
const landingSections = () => import('../features/home/LandingSections');
const TimeClaim = lazy(() => landingSections().then((m) => ({ default: m.TimeClaim })));
const LandingSections = lazy(() => landingSections().then((m) => ({ default: m.LandingSections })));

const STYLES_CLAIM = { value: '60', label: 'studio styles' };
const PRICE_CLAIM = { value: PLANS_FROM, label: 'a month, cancel any time' };
/** In the rating's place when none is configured, so the list keeps its four columns. */
const SIZE_CLAIM = { value: '1024x1024', label: 'pixels per headshot' };

/** The configured rating as an 'At a glance' claim, or what is delivered when there is none. */
function RatingClaim() {
  const proof = useSocialProof();
  const rating = ratingText(proof);
  if (!rating) return <Claim {...SIZE_CLAIM} />;
  const professionals = professionalsText(proof);
  return (
    <Claim value={rating} label={professionals ? `from ${professionals}` : 'average rating'} />
  );
}

/** False until the browser has painted the page once: a frame, then a task after it. */
function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}

/** The configured rating under the portraits; nothing at all when none is set. */
function RatingBadge() {
  const proof = useSocialProof();
  const rating = ratingText(proof);
  if (!rating) return null;
  const professionals = professionalsText(proof);
  return (
    <div className="absolute bottom-0 left-1/2 z-20 -translate-x-1/2 rounded-2xl bg-white px-4 py-2 text-center text-sm font-medium whitespace-nowrap text-stone-800 shadow-lg">
      <span className="text-accent-600" aria-hidden="true">
        ★★★★★
      </span>{' '}
      {rating}
      {professionals && ` from ${professionals}`}
      <span className="block text-xs font-normal text-stone-500">{sourceText(proof)}</span>
    </div>
  );
}

function HeroArt() {
  return (
    <div className="relative mx-auto h-80 w-full max-w-md sm:h-96" aria-hidden="true">
      <div className="absolute top-8 left-0 w-[46%] -rotate-6 overflow-hidden rounded-3xl shadow-xl shadow-stone-900/15 ring-4 ring-white">
        <Portrait style="business" variant="after" label="" className="block h-auto w-full" />
      </div>
      <div className="absolute top-8 right-0 w-[46%] rotate-6 overflow-hidden rounded-3xl shadow-xl shadow-stone-900/15 ring-4 ring-white">
        <Portrait style="creative" variant="after" label="" className="block h-auto w-full" />
      </div>
      <div className="absolute top-0 left-1/2 z-10 w-[52%] -translate-x-1/2 overflow-hidden rounded-3xl shadow-2xl shadow-stone-900/25 ring-4 ring-white">
        <Portrait style="executive" variant="after" label="" className="block h-auto w-full" />
      </div>
      <RatingBadge />
    </div>
  );
}

function SignedOutHero() {
  const { start, busy } = useGetStarted();
  return (
    <>
      <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
        AI headshot studio
      </p>
      <h1 className="mt-4 font-display text-4xl leading-[1.08] font-semibold tracking-tight text-stone-950 sm:text-5xl lg:text-6xl">
        Professional headshots from the selfies you already have.
      </h1>
      <p className="mt-6 max-w-xl text-lg text-stone-600">
        Upload 10-20 photos, we train a personal AI model on them, and you get studio-quality
        1024x1024 headshots. Plans from {PLANS_FROM} a month, cancel any time.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <button
          type="button"
          onClick={() => void start()}
          disabled={busy}
          className={buttonClass('primary', 'lg')}
        >
          {busy && <Spinner className="size-4" />}
          Start Creating
        </button>
        <Link to="/demo" className={buttonClass('secondary', 'lg')}>
          Try FREE Demo
        </Link>
        <Link to="/old-demo" className={buttonClass('ghost', 'lg')}>
          See Interactive Demo <span aria-hidden="true">→</span>
        </Link>
      </div>
      <p className="mt-6 text-sm text-stone-600">
        <Link className="underline underline-offset-4 hover:text-stone-950" to="/refunds">
          30-day money-back guarantee
        </Link>
        .
      </p>
    </>
  );
}

function SignedInHero({ name, email }: { name: string; email: string | undefined }) {
  return (
    <>
      <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
        Your studio
      </p>
      <h1 className="mt-4 font-display text-4xl leading-[1.08] font-semibold tracking-tight break-words text-stone-950 sm:text-5xl">
        Welcome back, {name}!
      </h1>
      {email && <p className="mt-3 text-lg break-all text-stone-600">{email}</p>}
      <p className="mt-6 max-w-xl text-stone-600">
        Pick up where you left off: check on your models, or upload a fresh set of selfies.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link to="/dashboard" className={buttonClass('primary', 'lg')}>
          Go to Dashboard
        </Link>
        <Link to="/upload" className={buttonClass('secondary', 'lg')}>
          Upload Photos
        </Link>
      </div>
    </>
  );
}

export function Component() {
  const { status, user } = useSession();
  const signedIn = status === 'authenticated';
  const painted = useAfterFirstPaint();

  return (
    <>
      <section className="mx-auto grid max-w-6xl items-center gap-12 overflow-x-clip px-4 pt-12 pb-16 sm:px-6 sm:pt-16 lg:grid-cols-2 lg:pt-24 lg:pb-24">
        <div>
          {signedIn ? (
            <SignedInHero name={bestName(user)} email={user?.email} />
          ) : (
            <SignedOutHero />
          )}
        </div>
        <HeroArt />
      </section>

      <section aria-label="At a glance" className="border-y border-stone-200 bg-white">
        <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-y-8 px-4 py-10 sm:px-6 md:grid-cols-4">
          <Claim {...STYLES_CLAIM} />
          {painted ? (
            <Suspense fallback={UNTIMED_CLAIM}>
              <TimeClaim />
            </Suspense>
          ) : (
            UNTIMED_CLAIM
          )}
          <RatingClaim />
          <Claim {...PRICE_CLAIM} />
        </dl>
      </section>

      {/* Below the fold (the main area is a screen tall), so nothing on screen moves when it comes. */}
      {painted && (
        <Suspense fallback={null}>
          <LandingSections />
        </Suspense>
      )}
    </>
  );
}
