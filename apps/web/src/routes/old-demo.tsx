import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Interactive Demo"
      summary="A guided walk through sample before-and-after transformations."
    />
  );
}
