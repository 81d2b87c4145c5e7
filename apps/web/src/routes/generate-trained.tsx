import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Premium Headshot Generation"
      summary="Style cards, quick prompts and 1024x1024 results, ready in 2-5 minutes. Each generation uses 1 credit."
    />
  );
}
