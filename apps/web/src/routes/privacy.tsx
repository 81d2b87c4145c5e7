import { EXPORT_KEPT_HOURS, EXPORT_LINK_MINUTES } from '@studioshot/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cardClass, buttonClass } from '../components/ui';
import { useSession } from '../features/auth/session-store';
import { usePrivacyFacts } from '../features/settings/privacy-facts';

/** A number from the server, with room kept for it while it loads (nothing moves when it comes). */
function Figure({ value }: { value: number | undefined }) {
  return <span className="inline-block min-w-[2ch] text-center tabular-nums">{value ?? '…'}</span>;
}

function Fact({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className={`${cardClass} p-5`}>
      <p className="font-display text-lg font-semibold text-stone-950">{title}</p>
      <p className="mt-1.5 text-sm text-stone-700">{children}</p>
    </div>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-10">
      <h2 className="font-display text-2xl font-semibold text-stone-950">{title}</h2>
      <div className="mt-3 space-y-3 text-stone-700">{children}</div>
    </section>
  );
}

/** What we keep, for how long, and how to take it or delete it: the numbers said plainly. */
export function Component() {
  const facts = usePrivacyFacts();
  const { status } = useSession();
  const days = facts.data?.photo_retention_days;
  const settings = status === 'authenticated' ? '/settings' : '/auth?redirect=/settings';

  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Privacy · Studioshot</title>
      <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">Privacy</p>
      <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
        Your face, your data
      </h1>
      <p className="mt-3 text-lg text-stone-600">
        You trust us with photos of your face. Here is exactly what we keep, for how long, and how
        to take it all with you or delete it.
      </p>

      {facts.isError && (
        <div
          role="alert"
          className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          <span>We could not load the current retention period. Please try again.</span>
          <button
            type="button"
            onClick={() => void facts.refetch()}
            className={buttonClass('secondary', 'sm')}
          >
            Try again
          </button>
        </div>
      )}

      <div className="mt-8 grid gap-4 sm:grid-cols-2" aria-busy={facts.isPending || undefined}>
        <Fact
          title={
            <>
              Training photos: <Figure value={days} /> days
            </>
          }
        >
          Deleted <Figure value={days} /> days after your model&apos;s training finishes: the photos
          and every copy we made of them.
        </Fact>
        <Fact title="Headshots: until you delete them">
          The headshots you generate stay in your gallery until you delete them, one by one or with
          your account.
        </Fact>
        <Fact title="Download everything">
          Settings makes a zip of your headshots, the photos we still hold and your account data.
          Its link works for {EXPORT_LINK_MINUTES} minutes; the file is deleted after{' '}
          {EXPORT_KEPT_HOURS} hours.
        </Fact>
        <Fact title="Delete your account">
          One step in Settings, confirmed with your password: photos, models, headshots, sign-ins
          and profile are all deleted.
        </Fact>
      </div>

      <Part title="What we collect">
        <p>
          The photos you upload. We remove their location and camera data (EXIF, GPS) as they arrive
          and keep three copies of each: the full-size photo, a 1024 px copy and a thumbnail.
        </p>
        <p>
          Measurements of the face in each photo, so we can check that every photo shows the same
          person and pick your best headshots. They are kept with your model.
        </p>
        <p>
          Your account: name, e-mail address, password (only as a one-way hash), and optionally your
          age and gender. For each sign-in we keep the browser and address it came from, so you can
          see and end your sign-ins.
        </p>
        <p>Your payments and credit movements.</p>
      </Part>

      <Part title="How long we keep it">
        <ul className="list-disc space-y-2 pl-5">
          <li>
            Training photos: deleted <Figure value={days} /> days after the training that used them
            finishes, whether it succeeded or not. A photo set that was never used for training
            stays until you delete it or your account.
          </li>
          <li>Your models and headshots: until you delete them, or your account.</li>
          <li>
            Data downloads: the zip is deleted {EXPORT_KEPT_HOURS} hours after it is made; each
            download link works for {EXPORT_LINK_MINUTES} minutes.
          </li>
          <li>
            Sign-ins: until you sign out, or <Figure value={facts.data?.sign_in_days} /> days after
            you signed in.
          </li>
          <li>
            One exception: a model made before our current model format keeps its photos until its
            next generation updates it; after that the same clock applies.
          </li>
        </ul>
      </Part>

      <Part title="What we keep after you delete your account">
        <p>
          Records of your payments and credit movements stay, because accounting and tax law require
          us to keep them. They are unlinked from you: they point at an anonymous id with no name,
          e-mail address or photos. Your e-mail address is freed, and can sign up again as a new
          account.
        </p>
      </Part>

      <Part title="Your choices">
        <p>
          In Settings you can see every device signed in to your account and sign any of them out,
          download all your data, and delete your account.
        </p>
        <Link to={settings} className={buttonClass('primary')}>
          Open Settings
        </Link>
      </Part>
    </article>
  );
}
