import { Portrait } from '../../components/art/Portrait';
import { socialProofSentence, sourceText, useSocialProof } from '../social-proof/social-proof';

/** The calm visual beside the auth form on wide screens. */
export function AuthShowcase() {
  const proof = useSocialProof();
  const facts = [socialProofSentence(proof), '60 studio styles', '1024x1024 headshots'];
  const source = sourceText(proof);
  return (
    <aside className="hidden lg:block" aria-label="About Studioshot">
      <div className="relative mx-auto aspect-[4/5] max-w-md overflow-hidden rounded-[2rem] shadow-2xl shadow-stone-900/20">
        <Portrait
          style="executive"
          variant="after"
          label="Illustration of an executive studio headshot"
          className="size-full"
        />
        <div className="absolute inset-x-4 bottom-4 rounded-2xl bg-white/90 p-5 backdrop-blur">
          <p className="font-display text-lg font-semibold text-stone-950">
            Studio-quality headshots from the selfies you already have
          </p>
          <p className="mt-1 text-sm text-stone-600">{facts.filter(Boolean).join(' · ')}</p>
          {source && <p className="mt-1 text-xs text-stone-500">{source}</p>}
        </div>
      </div>
    </aside>
  );
}
