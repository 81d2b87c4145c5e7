import { useParams } from 'react-router';
import { ComingSoon } from '../components/ComingSoon';

export function Component() {
  const { sessionId } = useParams();
  return (
    <ComingSoon
      title="Your Headshots"
      summary={`Results and downloads for session ${sessionId ?? ''} will appear here after payment.`}
    />
  );
}
