import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Free Demo"
      summary="Pick a style (Professional Executive, Creative Professional or Smart Casual) and preview sample results, with no payment needed."
    />
  );
}
