import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Simple Generation"
      summary="A streamlined way to generate headshots with your model."
    />
  );
}
