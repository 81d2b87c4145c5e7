import { useParams } from 'react-router';
import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  const { sessionId } = useParams();
  return (
    <ComingSoon
      title="Training Status"
      summary={`Live progress for training ${sessionId ?? ''}: percent done, photos used and minutes remaining.`}
    />
  );
}
