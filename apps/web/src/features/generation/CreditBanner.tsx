import { useState } from 'react';
import { LowCreditBanner } from '../payments/LowCreditBanner';

/** The low-credit banner under a generation page's header; Dismiss hides it for this visit. */
export function CreditBanner({ credits }: { credits: number }) {
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
  return (
    <LowCreditBanner credits={credits} onDismiss={() => setDismissed(true)} className="mt-6" />
  );
}
