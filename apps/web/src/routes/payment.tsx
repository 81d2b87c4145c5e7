import { Navigate, useSearchParams } from 'react-router';
import { useSession } from '../features/auth/session-store';
import { PaymentPage } from '../features/payments/PaymentPage';
import { appStorage, STORAGE_KEYS } from '../lib/storage';

export function Component() {
  const { status, user } = useSession();
  const [params, setParams] = useSearchParams();
  const token = appStorage.getItem(STORAGE_KEYS.accessToken);
  if (status !== 'authenticated' || !user || !token) return <Navigate to="/auth" replace />;

  const nameIntent = (paymentIntentId: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('payment_intent', paymentIntentId);
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <title>Payment · Studioshot</title>
      <PaymentPage params={params} user={user} onIntentCreated={nameIntent} />
    </>
  );
}
