import type { User } from '@studioshot/contracts';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { AuthShowcase } from '../features/auth/AuthShowcase';
import { SignInForm, SignUpForm } from '../features/auth/AuthForms';
import { ResetPasswordDialog, type ResetStart } from '../features/auth/ResetPasswordDialog';
import { postLoginTarget, postSignupTarget, safeRedirect } from '../features/auth/redirects';
import { clearAuthRedirect, getAuthRedirect, useSession } from '../features/auth/session-store';
import { usePublicResultsEstimate } from '../features/queue/use-public-estimate';
import { cardClass } from '../components/ui';
import { toast } from '../lib/toast';

type Mode = 'signin' | 'signup';

const COPY: Record<Mode, { title: string; lead: string }> = {
  signin: { title: 'Welcome back', lead: 'Sign in to continue to your headshots.' },
  signup: {
    title: 'Create your account',
    lead: 'Start turning everyday selfies into studio-quality headshots.',
  },
};

export function Component() {
  const { status } = useSession();
  const results = usePublicResultsEstimate();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const urlRedirect = params.get('redirect');
  const [mode, setMode] = useState<Mode>(params.get('mode') === 'signup' ? 'signup' : 'signin');
  const [email, setEmail] = useState(params.get('reset_email') ?? '');
  // Set while our own form signs in, so the "already signed in" redirect stays out of the way.
  const [completing, setCompleting] = useState(false);
  // Remounts the sign-in form so it picks up the e-mail of a finished password reset.
  const [formVersion, setFormVersion] = useState(0);
  const [reset, setReset] = useState<ResetStart | null>(() => {
    const resetEmail = params.get('reset_email');
    const resetToken = params.get('reset_token');
    return resetEmail && resetToken ? { email: resetEmail, resetToken } : null;
  });

  if (status === 'authenticated' && !completing) {
    return <Navigate to={safeRedirect(urlRedirect) ?? '/dashboard'} replace />;
  }

  const afterLogin = (user: User) => {
    const target = postLoginTarget({
      modelsTrained: user.models_trained,
      storedRedirect: getAuthRedirect(),
      urlRedirect,
    });
    clearAuthRedirect();
    void navigate(target, { replace: true });
  };

  const afterSignup = () => {
    const target = postSignupTarget({ storedRedirect: getAuthRedirect(), urlRedirect });
    clearAuthRedirect();
    void navigate(target, { replace: true });
  };

  const closeReset = () => {
    setReset(null);
    if (params.has('reset_token') || params.has('reset_email')) {
      const next = new URLSearchParams(params);
      next.delete('reset_token');
      next.delete('reset_email');
      setParams(next, { replace: true });
    }
  };

  const formProps = {
    defaultEmail: email,
    onEmailChange: setEmail,
    onSubmitting: () => setCompleting(true),
  };

  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[1.1fr_1fr] lg:items-center lg:py-16">
      <title>{`${mode === 'signin' ? 'Sign in' : 'Create account'} · Studioshot`}</title>
      <AuthShowcase />
      <section className={`${cardClass} mx-auto w-full max-w-md p-6 sm:p-8`}>
        <div
          className="grid grid-cols-2 gap-1 rounded-full bg-stone-100 p-1"
          role="group"
          aria-label="Choose sign in or create account"
        >
          {(['signin', 'signup'] as const).map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={mode === option}
              onClick={() => setMode(option)}
              className={`rounded-full px-4 py-2 text-sm font-medium transition-colors ${
                mode === option
                  ? 'bg-white text-stone-950 shadow-sm'
                  : 'text-stone-600 hover:text-stone-950'
              }`}
            >
              {option === 'signin' ? 'Sign In' : 'Create Account'}
            </button>
          ))}
        </div>
        <h1 className="mt-7 font-display text-3xl font-semibold tracking-tight text-stone-950">
          {COPY[mode].title}
        </h1>
        <p className="mt-2 mb-6 text-stone-600">{COPY[mode].lead}</p>
        {mode === 'signin' ? (
          <SignInForm
            key={`signin-${formVersion}`}
            {...formProps}
            onSuccess={afterLogin}
            onForgotPassword={() => setReset({ email })}
          />
        ) : (
          <SignUpForm key="signup" {...formProps} onSuccess={afterSignup} />
        )}
        <p className="mt-6 text-center text-sm text-stone-600">
          {mode === 'signin' ? "Don't have an account?" : 'Already have an account?'}{' '}
          <button
            type="button"
            className="rounded font-medium text-accent-700 underline-offset-4 hover:underline"
            onClick={() => setMode(mode === 'signin' ? 'signup' : 'signin')}
          >
            {mode === 'signin' ? 'Create one' : 'Sign in'}
          </button>
        </p>
        {/* The line's height is kept while the estimate loads, so the card does not grow. */}
        <p className="mt-3 min-h-5 text-center text-sm text-stone-600">
          {results && `Results in ${results.phrase}`}
        </p>
      </section>
      <ResetPasswordDialog
        start={reset}
        onClose={closeReset}
        onReset={(resetEmail, message) => {
          closeReset();
          setEmail(resetEmail);
          setMode('signin');
          setFormVersion((v) => v + 1);
          toast.success(message);
        }}
      />
    </div>
  );
}
