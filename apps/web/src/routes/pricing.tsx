import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Pricing"
      summary="Plans with monthly training limits and headshot credits, starting at $29 with no monthly commitments and a 30-day money-back guarantee."
    />
  );
}
