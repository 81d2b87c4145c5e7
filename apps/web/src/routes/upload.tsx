import { MESSAGES } from '@studioshot/contracts/messages';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageState } from '../components/PageState';
import { buttonClass } from '../components/ui';
import { setAuthRedirect, useSession } from '../features/auth/session-store';
import { useProfile } from '../features/auth/use-profile';
import { TrainingLimitModal } from '../features/payments/TrainingLimitModal';
import { uploadGate } from '../features/upload/eligibility';
import { ProfileSetupModal } from '../features/upload/ProfileSetupModal';
import { Notice } from '../features/upload/UploadPanels';
import { UploadWorkspace } from '../features/upload/UploadWorkspace';
import { useUploadFlow } from '../features/upload/use-upload-flow';
import { useCurrentPhotoSet } from '../features/upload/current-set';
import { appStorage, STORAGE_KEYS } from '../lib/storage';
import { toast } from '../lib/toast';

export function Component() {
  const { user } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const hasToken = Boolean(appStorage.getItem(STORAGE_KEYS.accessToken));

  // Eligibility is decided on a profile fetched now, not on one cached before a purchase.
  const profile = useProfile({ refetchOnMount: 'always', enabled: hasToken });
  // The first answer decides (a failure sends the visitor to /pricing); afterwards a failed
  // background refresh keeps the last profile rather than throwing the visitor out mid-upload.
  const decided = useRef(false);
  const fetched = profile.isFetchedAfterMount;
  const gate = uploadGate({
    hasToken,
    hasUser: user !== null,
    profile: fetched && (decided.current || !profile.isError) ? profile.data : undefined,
    profileError: fetched && !decided.current ? profile.error : null,
  });
  useEffect(() => {
    if (gate.kind !== 'loading') decided.current = true;
  }, [gate.kind]);

  const [limitOpen, setLimitOpen] = useState(true);
  // null: not decided by the visitor yet; the modal opens by itself only while gender is missing.
  const [profileChoice, setProfileOpen] = useState<boolean | null>(null);

  // Leave for /auth or /pricing when the account cannot upload.
  const redirected = useRef(false);
  useEffect(() => {
    if (redirected.current) return;
    if (gate.kind === 'auth') {
      redirected.current = true;
      setAuthRedirect(location.pathname + location.search);
      void navigate('/auth', { replace: true });
    } else if (gate.kind === 'pricing') {
      redirected.current = true;
      if (gate.reason === 'plan') toast.info(MESSAGES.planRequired);
      else toast.error(MESSAGES.profileLoadFailed);
      void navigate('/pricing', { replace: true });
    }
  }, [gate, location.pathname, location.search, navigate]);

  const account = profile.data;
  const genderMissing = gate.kind === 'profile' && gate.genderMissing;
  const profileOpen = gate.kind === 'profile' && (profileChoice ?? gate.genderMissing);

  const sessionParam = searchParams.get('session');
  const flow = useUploadFlow(sessionParam, {
    onSessionChange: (id) =>
      setSearchParams(id ? { session: id } : {}, { replace: true, preventScrollReset: true }),
    onPlanRequired: () => void navigate('/pricing'),
    onLimitReached: () => {
      setLimitOpen(true);
      void profile.refetch();
    },
    canUpload: () => {
      if (!genderMissing) return true;
      setProfileOpen(true);
      return false;
    },
  });

  // Opened without a set: pick up the one the user left off with, if any, once (Upload More
  // Photos after a finished set starts a new one and must not be sent back to it).
  const [openedWithoutSet] = useState(sessionParam === null);
  const adopted = useRef(false);
  const currentSet = useCurrentPhotoSet(
    openedWithoutSet && !adopted.current && (gate.kind === 'ready' || gate.kind === 'profile'),
  );
  const adoptSession = flow.adoptSession;
  useEffect(() => {
    if (!currentSet.data || adopted.current) return;
    adopted.current = true;
    adoptSession(currentSet.data.id);
  }, [adoptSession, currentSet.data]);

  const startTraining = async () => {
    const sessionId = flow.sessionId;
    if (!sessionId) return;
    if (await flow.completeSession()) {
      void navigate(`/training/start?session=${encodeURIComponent(sessionId)}`, {
        state: { sessionId },
      });
    }
  };

  const dismissProfile = () => setProfileOpen(false);

  const header = (
    <header className="max-w-2xl">
      <p className="text-sm font-semibold tracking-[0.18em] text-accent-700 uppercase">
        Train your model
      </p>
      <h1 className="mt-2 font-display text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
        Upload your photos
      </h1>
      <p className="mt-3 text-stone-600">
        Add 10-20 photos of yourself. We check each photo as it arrives and tell you which ones will
        train a great likeness.
      </p>
    </header>
  );

  if (
    gate.kind === 'loading' ||
    gate.kind === 'auth' ||
    gate.kind === 'pricing' ||
    currentSet.isLoading
  ) {
    return (
      <>
        <title>Upload Photos · Studioshot</title>
        <PageState title="Checking your account..." message="Getting your plan and profile" busy />
      </>
    );
  }

  if (gate.kind === 'limit') {
    return (
      <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
        <title>Upload Photos · Studioshot</title>
        {header}
        <div className="mt-8 max-w-2xl">
          <Notice
            tone="warning"
            title="Training limit reached"
            actions={
              <>
                <button
                  type="button"
                  onClick={() => setLimitOpen(true)}
                  className={buttonClass('primary')}
                >
                  See options
                </button>
                <Link to="/dashboard" className={buttonClass('secondary')}>
                  Go to Dashboard
                </Link>
              </>
            }
          >
            You have trained {gate.modelsTrained} of {gate.trainingLimit}{' '}
            {gate.trainingLimit === 1 ? 'model' : 'models'} on your plan. Add a training or upgrade
            your plan to train another model.
          </Notice>
        </div>
        <TrainingLimitModal
          open={limitOpen}
          onClose={() => setLimitOpen(false)}
          currentPlan={account?.plan_type}
          trainingLimit={gate.trainingLimit}
          modelsTrained={gate.modelsTrained}
        />
      </section>
    );
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <title>Upload Photos · Studioshot</title>
      {header}
      <UploadWorkspace
        flow={flow}
        profile={account}
        onStartTraining={() => void startTraining()}
        profileNotice={
          genderMissing && !profileOpen ? (
            <Notice
              tone="warning"
              title="Complete your profile to upload"
              actions={
                <button
                  type="button"
                  onClick={() => setProfileOpen(true)}
                  className={buttonClass('primary')}
                >
                  Set up profile
                </button>
              }
            >
              Tell us your gender so we can style your headshots. You can pick photos now and upload
              them once your profile is set.
            </Notice>
          ) : undefined
        }
      />
      {gate.kind === 'profile' && account && (
        <ProfileSetupModal
          open={profileOpen}
          onClose={dismissProfile}
          onSaved={() => {
            setProfileOpen(false);
            toast.success('Profile saved');
          }}
          defaults={{ gender: account.gender, age: account.age }}
          genderRequired={gate.genderMissing}
        />
      )}
    </section>
  );
}
