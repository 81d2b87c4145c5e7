import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Generate Headshots"
      summary="Choose from 60 studio templates and generate 4 headshots per credit with your trained model."
    />
  );
}
