import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Payment"
      summary="Secure checkout for plans, extra training and credit packs."
    />
  );
}
