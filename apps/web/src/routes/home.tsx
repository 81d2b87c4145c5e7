import { Link } from 'react-router';
import { Portrait, type PortraitStyle } from '../components/art/Portrait';
import { Spinner } from '../components/PageState';
import { buttonClass, cardClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';
import { useGetStarted } from '../features/home/use-get-started';
import { useResultsEstimate } from '../features/queue/use-durations';
import { bestName } from '../lib/display-name';

/** What the landing promises about time: computed from the queue, or nothing (see durations.ts). */
type ResultsEstimate = ReturnType<typeof useResultsEstimate>;

function claims(results: ResultsEstimate) {
  return [
    { value: '4K', label: 'studio-grade quality' },
    // The time to results only when the queue and the engine's durations say it; signed-out
    // visitors cannot ask the queue, so they get a claim that does not depend on it.
    results
      ? { value: results.short, label: 'to your results right now' }
      : { value: '1 credit', label: 'for 4 headshots' },
    { value: '4.9/5', label: 'from 2,847+ professionals' },
    { value: '$29', label: 'starting price, no subscription' },
  ];
}

function reasons(results: ResultsEstimate) {
  return [
    {
      title: 'Studio quality in 4K',
      body: 'Crisp, evenly lit portraits at 4K resolution, ready for print, LinkedIn and your company site.',
    },
    {
      // Only the title depends on the estimate, so the card keeps its size when it arrives.
      title: results ? `Results in ${results.phrase}` : 'No studio booking',
      body: 'Skip the booking, the commute and the retakes. Upload from your phone and follow your model’s training live.',
    },
    ...REASONS,
  ];
}

const REASONS = [
  {
    title: 'Trusted by professionals',
    body: 'Rated 4.9/5 by 2,847+ professionals, from individuals and freelancers to teams and agencies.',
  },
  {
    title: 'A model that is only yours',
    body: 'We train a personal model on your own 10-20 photos, so every headshot still looks like you.',
  },
  {
    title: 'Pay once, from $29',
    body: 'Starting at $29 with no monthly commitments. Buy credits when you need them; each generation makes 4 images.',
  },
  {
    title: '30-day money-back guarantee',
    body: 'Not happy with your headshots? Tell us within 30 days and get your money back.',
  },
];

const EXAMPLES: { style: PortraitStyle; title: string; body: string }[] = [
  {
    style: 'executive',
    title: 'Executive',
    body: 'Dark, dramatic backdrop, tailored suit and confident lighting for leadership pages.',
  },
  {
    style: 'creative',
    title: 'Creative',
    body: 'Warm colour and relaxed styling for portfolios, agencies and speaker bios.',
  },
  {
    style: 'business',
    title: 'Business',
    body: 'Bright, neutral and approachable: the everyday profile photo for any team.',
  },
];

const STEPS = [
  {
    title: 'Upload 10-20 selfies',
    body: 'Different angles, expressions and lighting. JPEG, PNG or WebP straight from your phone.',
  },
  {
    title: 'We train your personal model',
    body: 'Our AI learns your features from your photos only. You can follow its progress live.',
  },
  {
    title: 'Generate your headshots',
    body: 'Pick a style and get 4 headshots per generation, 1 credit each. Download the ones you love.',
  },
];

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
      <div className="absolute bottom-0 left-1/2 z-20 -translate-x-1/2 rounded-full bg-white px-4 py-2 text-sm font-medium whitespace-nowrap text-stone-800 shadow-lg">
        <span className="text-accent-600">★★★★★</span> 4.9/5 from 2,847+ professionals
      </div>
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
        Upload 10-20 photos, we train a personal AI model on them, and you get studio-quality 4K
        headshots. Starting at $29, with no monthly commitments.
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
      <p className="mt-6 text-sm text-stone-600">30-day money-back guarantee.</p>
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

function SectionHeading({
  id,
  eyebrow,
  title,
  lead,
}: {
  id: string;
  eyebrow: string;
  title: string;
  lead?: string;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">{eyebrow}</p>
      <h2
        id={id}
        className="mt-3 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl"
      >
        {title}
      </h2>
      {lead && <p className="mt-4 text-stone-600">{lead}</p>}
    </div>
  );
}

export function Component() {
  const { status, user } = useSession();
  const { start, busy } = useGetStarted();
  const signedIn = status === 'authenticated';
  const results = useResultsEstimate();

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
          {claims(results).map((claim) => (
            <div key={claim.label} className="flex flex-col-reverse text-center">
              <dt className="mt-1 text-sm text-stone-600">{claim.label}</dt>
              <dd className="font-display text-3xl font-semibold text-stone-950">{claim.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-20 sm:px-6" aria-labelledby="why-title">
        <SectionHeading
          id="why-title"
          eyebrow="Why choose Studioshot"
          title="The studio session, without the studio"
          lead="For individuals, professionals, teams and agencies who need a great headshot, fast."
        />
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {reasons(results).map((reason) => (
            <li key={reason.title} className={`${cardClass} p-6`}>
              <span aria-hidden="true" className="mb-4 block h-1 w-8 rounded-full bg-accent-500" />
              <h3 className="font-semibold text-stone-950">{reason.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-stone-600">{reason.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="bg-stone-900 py-20 text-stone-100" aria-labelledby="styles-title">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <div className="mx-auto max-w-2xl text-center">
            <p className="text-sm font-semibold tracking-[0.18em] text-accent-300 uppercase">
              Before &amp; after
            </p>
            <h2
              id="styles-title"
              className="mt-3 font-display text-3xl font-semibold tracking-tight text-white sm:text-4xl"
            >
              One set of selfies, every style you need
            </h2>
            <p className="mt-4 text-stone-300">
              Illustrations of the three style families. Your results are generated from your own
              photos.
            </p>
          </div>
          <ul className="mt-12 grid gap-8 md:grid-cols-3">
            {EXAMPLES.map((example) => (
              <li key={example.style}>
                <div className="grid grid-cols-2 gap-2">
                  <figure className="relative overflow-hidden rounded-2xl">
                    <Portrait
                      style={example.style}
                      variant="before"
                      label={`Before: a casual selfie (${example.title} example)`}
                      className="block h-auto w-full"
                    />
                    <figcaption className="absolute top-2 left-2 rounded-full bg-white/90 px-2.5 py-0.5 text-xs font-medium text-stone-800">
                      Before
                    </figcaption>
                  </figure>
                  <figure className="relative overflow-hidden rounded-2xl">
                    <Portrait
                      style={example.style}
                      variant="after"
                      label={`After: ${example.title} studio headshot`}
                      className="block h-auto w-full"
                    />
                    <figcaption className="absolute top-2 left-2 rounded-full bg-accent-600 px-2.5 py-0.5 text-xs font-medium text-white">
                      After
                    </figcaption>
                  </figure>
                </div>
                <h3 className="mt-5 font-display text-xl font-semibold text-white">
                  {example.title}
                </h3>
                <p className="mt-1 text-sm text-stone-300">{example.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-20 sm:px-6" aria-labelledby="how-title">
        <SectionHeading
          id="how-title"
          eyebrow="How it works"
          title="Three steps to your new headshot"
        />
        <ol className="mt-12 grid gap-5 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className={`${cardClass} relative p-6 pt-14`}>
              <span
                aria-hidden="true"
                className="absolute top-5 left-6 flex size-8 items-center justify-center rounded-full bg-accent-100 text-sm font-semibold text-accent-800"
              >
                {index + 1}
              </span>
              <h3 className="font-semibold text-stone-950">
                <span className="sr-only">Step {index + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 text-sm leading-relaxed text-stone-600">{step.body}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="px-4 pb-20 sm:px-6" aria-labelledby="cta-title">
        <div className="mx-auto max-w-4xl rounded-[2rem] bg-accent-50 px-6 py-12 text-center ring-1 ring-accent-100 sm:px-12">
          <h2
            id="cta-title"
            className="font-display text-3xl font-semibold tracking-tight text-stone-950"
          >
            {signedIn
              ? 'Ready for your next set of headshots?'
              : 'Your next headshot is a few selfies away'}
          </h2>
          <p className="mt-3 text-stone-600">
            Starting at $29 · No monthly commitments · 30-day money-back guarantee
          </p>
          <button
            type="button"
            onClick={() => void start()}
            disabled={busy}
            className={`${buttonClass('primary', 'lg')} mt-8`}
          >
            {busy && <Spinner className="size-4" />}
            Get Started
          </button>
        </div>
      </section>
    </>
  );
}
