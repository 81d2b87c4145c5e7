import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Credits"
      summary="Credit packages for generating headshots. Credits never expire."
    />
  );
}
