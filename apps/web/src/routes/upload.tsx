import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Upload Photos"
      summary="Drag and drop 10-20 selfies (JPEG, PNG or WebP, up to 50MB each) to train your personal model."
    />
  );
}
