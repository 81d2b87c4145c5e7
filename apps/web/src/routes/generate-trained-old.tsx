import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Classic Model Generation"
      summary="The earlier generation screen for trained models."
    />
  );
}
