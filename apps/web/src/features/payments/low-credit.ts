import { LOW_CREDIT_THRESHOLD, VERY_LOW_CREDIT_THRESHOLD } from './catalogue';

export interface LowCreditLevel {
  level: 'out' | 'almost' | 'low';
  title: string;
  action: string;
  body: string;
}

/** Low-credit banner (product spec): shown at 5 credits or fewer; null above that. */
export function lowCreditLevel(credits: number | null | undefined): LowCreditLevel | null {
  const balance = Math.max(0, credits ?? 0);
  if (balance > LOW_CREDIT_THRESHOLD) return null;
  if (balance === 0) {
    return {
      level: 'out',
      title: 'Out of Credits!',
      action: 'Buy Credits Now',
      body: 'You have no credits left. Each generation of 4 headshots uses 1 credit.',
    };
  }
  const noun = balance === 1 ? 'credit' : 'credits';
  if (balance <= VERY_LOW_CREDIT_THRESHOLD) {
    return {
      level: 'almost',
      title: 'Almost Out of Credits!',
      action: 'Get More Credits',
      body: `Only ${balance} ${noun} left. Top up now so your next generation is not interrupted.`,
    };
  }
  return {
    level: 'low',
    title: 'Running Low on Credits',
    action: 'View Credit Packages',
    body: `${balance} ${noun} left. Credit packages never expire and cost less per credit.`,
  };
}
