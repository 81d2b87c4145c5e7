import { Link } from 'react-router';
import { Portrait, type PortraitStyle } from '../../components/art/Portrait';
import { Spinner } from '../../components/PageState';
import { buttonClass, cardClass } from '../../components/ui';
import { useSession } from '../auth/session-store';
import type { ResultsEstimate } from '../queue/durations';
import { usePublicResultsEstimate } from '../queue/use-public-estimate';
import type { SocialProof } from '@studioshot/contracts';
import { socialProofSentence, sourceText, useSocialProof } from '../social-proof/social-proof';
import { Claim, UNTIMED_CLAIM } from './Claim';
import { useGetStarted } from './use-get-started';
import { ORDER_IMAGES, ORDER_PRICE, PLANS_FROM } from './starting-price';

/**
 * The parts of the landing page that depend on the public wait-time estimate, and the sections
 * below them, all below the fold: the page loads them after its first paint (routes/home.tsx),
 * so what it ships first does not carry the estimate's code.
 */

/** The time to results in the 'At a glance' list; the untimed claim while nothing is known. */
export function TimeClaim() {
  const results = usePublicResultsEstimate();
  return results ? <Claim value={results.short} label="to your results" /> : UNTIMED_CLAIM;
}

/**
 * The configured rating as a reason, with its source; without one, a reason that needs no figure
 * takes its place, so the grid keeps its six cards.
 */
function trustReason(proof: SocialProof | undefined) {
  const sentence = socialProofSentence(proof);
  if (!sentence)
    return {
      title: 'Your photos stay yours',
      body: 'Your selfies train only your own model and are deleted a set number of days after its training (the Privacy page says how many); your headshots are yours to delete.',
    };
  return {
    title: 'Trusted by professionals',
    body: `${sentence}, from individuals and freelancers to teams and agencies. ${sourceText(proof)}.`,
  };
}

function reasons(results: ResultsEstimate | null, proof: SocialProof | undefined) {
  return [
    {
      title: 'Studio-lit portraits',
      body: 'Crisp, evenly lit 1024x1024 portraits, ready for LinkedIn and your company site.',
    },
    {
      // Only the title depends on the estimate, so the card keeps its size when it arrives.
      title: results ? `Results in ${results.phrase}` : 'No studio booking',
      body: 'Skip the booking, the commute and the retakes. Upload from your phone and follow your model’s training live.',
    },
    trustReason(proof),
    ...REASONS,
  ];
}

const REASONS = [
  {
    title: 'A model that is only yours',
    body: 'We train a personal model on your own 10-20 photos, so every headshot still looks like you.',
  },
  {
    title: `Plans from ${PLANS_FROM} a month`,
    body: `Every plan trains your own model and brings credits each month; cancel any time. Once your model is trained, ${ORDER_IMAGES} more headshots are a one-off ${ORDER_PRICE}.`,
  },
  {
    title: '30-day money-back guarantee',
    body: 'Not happy with your headshots? Request a refund from your Billing page within 30 days and the money goes back to your card.',
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

/** Why choose, before and after, how it works and the closing call to action. */
export function LandingSections() {
  const { status } = useSession();
  const { start, busy } = useGetStarted();
  const signedIn = status === 'authenticated';
  const results = usePublicResultsEstimate();
  const proof = useSocialProof();

  return (
    <>
      <section className="mx-auto max-w-6xl px-4 py-20 sm:px-6" aria-labelledby="why-title">
        <SectionHeading
          id="why-title"
          eyebrow="Why choose Studioshot"
          title="The studio session, without the studio"
          lead="For individuals, professionals, teams and agencies who need a great headshot, fast."
        />
        <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {reasons(results, proof).map((reason) => (
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
            Plans from {PLANS_FROM} a month · Cancel any time ·{' '}
            <Link className="underline underline-offset-4 hover:text-stone-950" to="/refunds">
              30-day money-back guarantee
            </Link>
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
