import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ProgressBar } from '../components/ProgressBar';
import { buttonClass, cardClass } from '../components/ui';
import { DEMO_PORTRAIT, DEMO_STYLES, demoSamples, type DemoStyle } from '../features/demo/samples';

/** How long the demo's generating step lasts (spec: 2 seconds). */
export const DEMO_GENERATING_MS = 2000;
/** Progress bar updates during the generating step. */
const PROGRESS_TICKS = 10;

type Step = { name: 'choose' } | { name: 'generating'; elapsed: number } | { name: 'done' };

/**
 * The free demo: choose one of three styles, 'Try FREE Demo', a short generating step, then three
 * samples of that style made by our engine from a public-domain portrait. No sign-in, no payment.
 */
export function Component() {
  const [styleId, setStyleId] = useState(DEMO_STYLES[0]!.id);
  const [step, setStep] = useState<Step>({ name: 'choose' });
  const style = DEMO_STYLES.find((s) => s.id === styleId) ?? DEMO_STYLES[0]!;

  // One timer ends the step at exactly 2 s; another only moves the bar.
  const generating = step.name === 'generating';
  useEffect(() => {
    if (!generating) return;
    const tick = DEMO_GENERATING_MS / PROGRESS_TICKS;
    const progress = setInterval(
      () =>
        setStep((current) =>
          current.name === 'generating'
            ? { name: 'generating', elapsed: Math.min(current.elapsed + tick, DEMO_GENERATING_MS) }
            : current,
        ),
      tick,
    );
    const done = setTimeout(() => setStep({ name: 'done' }), DEMO_GENERATING_MS);
    return () => {
      clearInterval(progress);
      clearTimeout(done);
    };
  }, [generating]);

  return (
    <section className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <title>Free Demo · Studioshot</title>
      <header className="max-w-2xl">
        <p className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase">
          Free demo · no sign-up
        </p>
        <h1 className="mt-3 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
          See a headshot style before you pay
        </h1>
        <p className="mt-3 text-stone-700">
          Pick a style and we show you what it looks like on a real portrait. Your own headshots
          come from a model trained on your photos.
        </p>
      </header>

      {step.name === 'choose' && (
        <StylePicker
          selected={style.id}
          onSelect={setStyleId}
          onTry={() => setStep({ name: 'generating', elapsed: 0 })}
        />
      )}
      {step.name === 'generating' && (
        <Generating style={style} percent={(step.elapsed / DEMO_GENERATING_MS) * 100} />
      )}
      {step.name === 'done' && (
        <Samples style={style} onReset={() => setStep({ name: 'choose' })} />
      )}
    </section>
  );
}

function StylePicker({
  selected,
  onSelect,
  onTry,
}: {
  selected: string;
  onSelect: (id: string) => void;
  onTry: () => void;
}) {
  return (
    <div className="mt-10">
      <fieldset>
        <legend className="text-sm font-semibold text-stone-900">Choose a style</legend>
        <div className="mt-4 grid gap-4 sm:grid-cols-3">
          {DEMO_STYLES.map((style) => {
            const checked = style.id === selected;
            const [cover] = demoSamples(style);
            return (
              <label
                key={style.id}
                className={`${cardClass} cursor-pointer overflow-hidden transition focus-within:ring-2 focus-within:ring-accent-600 ${
                  checked ? 'border-accent-600 ring-2 ring-accent-600' : 'hover:border-stone-300'
                }`}
              >
                <input
                  type="radio"
                  name="demo-style"
                  value={style.id}
                  checked={checked}
                  onChange={() => onSelect(style.id)}
                  className="sr-only"
                />
                <img
                  src={cover!.src}
                  alt=""
                  width={400}
                  height={450}
                  className="aspect-[8/9] w-full object-cover"
                />
                <span className="block p-4">
                  <span className="block font-semibold text-stone-950">{style.name}</span>
                  <span className="mt-1 block text-sm text-stone-600">{style.description}</span>
                  <span className="mt-2 block text-xs text-stone-600">
                    {style.use_cases.join(' · ')}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <div className="mt-8 flex flex-wrap items-center gap-4">
        <button type="button" className={buttonClass('primary', 'lg')} onClick={onTry}>
          Try FREE Demo
        </button>
        <p className="text-sm text-stone-600">Free, instant, nothing to upload.</p>
      </div>
    </div>
  );
}

function Generating({ style, percent }: { style: DemoStyle; percent: number }) {
  return (
    <div className={`${cardClass} mt-10 flex flex-col items-center gap-6 p-8 sm:flex-row`}>
      <img
        src={DEMO_PORTRAIT.src}
        alt="The portrait the demo starts from"
        width={160}
        height={160}
        className="h-40 w-40 rounded-2xl object-cover"
      />
      <div className="w-full flex-1">
        <p className="font-semibold text-stone-950" aria-live="polite">
          Generating your {style.name} headshots...
        </p>
        <ProgressBar value={percent} label="Demo generation" className="mt-4" minVisible={4} />
        <p className="mt-3 text-sm text-stone-600">
          Lighting, backdrop and colour grade for the {style.name} look.
        </p>
      </div>
    </div>
  );
}

function Samples({ style, onReset }: { style: DemoStyle; onReset: () => void }) {
  const samples = demoSamples(style);
  return (
    <div className="mt-10">
      <h2 className="font-display text-2xl font-semibold text-stone-950">
        Your {style.name} samples
      </h2>
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {samples.map((sample, index) => (
          <li key={sample.src} className={`${cardClass} overflow-hidden`}>
            <img
              src={sample.src}
              alt={`${style.name} sample ${index + 1}: ${sample.templateName}`}
              width={400}
              height={450}
              className="aspect-[8/9] w-full object-cover"
            />
            <p className="px-4 py-3 text-sm text-stone-700">{sample.templateName}</p>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-stone-600">
        Made by our studio engine. {DEMO_PORTRAIT.credit}.
      </p>
      <div className={`${cardClass} mt-8 p-6`}>
        <h3 className="font-semibold text-stone-950">Want these with your own face?</h3>
        <p className="mt-1 text-sm text-stone-600">
          Train a personal model on 10-20 of your selfies, or generate from our base models.
        </p>
        <div className="mt-5 flex flex-wrap gap-3">
          <Link to="/upload" className={buttonClass('primary')}>
            Train Your Personal Model
          </Link>
          <Link to="/generate" className={buttonClass('secondary')}>
            Generate with Base Models
          </Link>
          <button type="button" className={buttonClass('ghost')} onClick={onReset}>
            Try Another Style
          </button>
        </div>
        <p className="mt-3 text-xs text-stone-600">Generating with base models uses credits.</p>
      </div>
    </div>
  );
}
