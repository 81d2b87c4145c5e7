import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  return (
    <ComingSoon
      title="Start Training"
      summary="Name your model, start training and follow its progress live."
    />
  );
}
