import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES } from '@studioshot/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Spinner } from '../../components/PageState';
import { FormError, PasswordToggle, TextField } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { requestPasswordReset, resetPassword } from './auth-api';
import {
  ZResetPasswordFormSchema,
  ZResetRequestFormSchema,
  type ResetPasswordForm,
  type ResetRequestForm,
} from './auth-schemas';

export interface ResetStart {
  email: string;
  /** Present when opened from a reset link: the dialog starts at step 2. */
  resetToken?: string;
}

function RequestStep({
  defaultEmail,
  onSent,
  onCancel,
}: {
  defaultEmail: string;
  onSent: (email: string, message: string, resetToken?: string) => void;
  onCancel: () => void;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetRequestForm>({
    resolver: zodResolver(ZResetRequestFormSchema),
    defaultValues: { email: defaultEmail },
  });

  const submit = handleSubmit(async ({ email }) => {
    setServerError(null);
    try {
      const { message, resetToken } = await requestPasswordReset(email);
      onSent(email, message, resetToken);
    } catch (error) {
      setServerError(errorMessage(error, MESSAGES.resetEmailFailed));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <p className="text-sm text-stone-600">
        Enter the e-mail you signed up with and we will send you a code to set a new password.
      </p>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        data-autofocus
        error={errors.email?.message}
        {...register('email')}
      />
      <FormError message={serverError} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className={buttonClass('secondary')} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={buttonClass('primary')} disabled={isSubmitting}>
          {isSubmitting && <Spinner className="size-4" />}
          {isSubmitting ? 'Sending...' : 'Send Reset Code'}
        </button>
      </div>
    </form>
  );
}

function NewPasswordStep({
  email,
  notice,
  defaultToken,
  onBack,
  onDone,
}: {
  email: string;
  notice: string | null;
  defaultToken: string;
  onBack: () => void;
  onDone: (message: string) => void;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const newId = useId();
  const confirmId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(ZResetPasswordFormSchema),
    defaultValues: { resetToken: defaultToken, newPassword: '', confirmPassword: '' },
  });

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    try {
      onDone(
        await resetPassword({
          email,
          resetToken: values.resetToken,
          newPassword: values.newPassword,
        }),
      );
    } catch (error) {
      setServerError(errorMessage(error, MESSAGES.resetFailed));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {notice && (
        <p role="status" className="rounded-xl bg-accent-50 px-4 py-3 text-sm text-stone-700">
          {notice}
        </p>
      )}
      <p className="text-sm text-stone-600">
        Setting a new password for <span className="font-medium text-stone-900">{email}</span>.
      </p>
      <TextField
        label="Reset code"
        autoComplete="one-time-code"
        data-autofocus={defaultToken ? undefined : true}
        spellCheck={false}
        hint={defaultToken ? 'Filled in from your reset request.' : undefined}
        error={errors.resetToken?.message}
        {...register('resetToken')}
      />
      <TextField
        id={newId}
        label="New password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="new-password"
        data-autofocus={defaultToken ? true : undefined}
        error={errors.newPassword?.message}
        trailing={
          <PasswordToggle
            visible={showPassword}
            onToggle={() => setShowPassword((v) => !v)}
            controls={`${newId} ${confirmId}`}
          />
        }
        {...register('newPassword')}
      />
      <TextField
        id={confirmId}
        label="Confirm new password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <FormError message={serverError} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" className={buttonClass('secondary')} onClick={onBack}>
          Back
        </button>
        <button type="submit" className={buttonClass('primary')} disabled={isSubmitting}>
          {isSubmitting && <Spinner className="size-4" />}
          {isSubmitting ? 'Resetting...' : 'Reset Password'}
        </button>
      </div>
    </form>
  );
}

interface Step2 {
  email: string;
  token: string;
  notice: string | null;
}

function ResetFlow({
  start,
  titleId,
  onClose,
  onReset,
}: {
  start: ResetStart;
  titleId: string;
  onClose: () => void;
  onReset: (email: string, message: string) => void;
}) {
  const [step, setStep] = useState<Step2 | null>(() =>
    start.resetToken ? { email: start.email, token: start.resetToken, notice: null } : null,
  );
  const containerRef = useRef<HTMLDivElement>(null);
  // Each step starts in its first field.
  useEffect(() => {
    containerRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [step]);
  return (
    <div ref={containerRef}>
      <div className="mb-5 flex items-start justify-between gap-4">
        <div>
          <p className="text-xs font-semibold tracking-[0.18em] text-accent-700 uppercase">
            Step {step ? 2 : 1} of 2
          </p>
          <h2 id={titleId} className="mt-1 font-display text-2xl font-semibold">
            {step ? 'Set a new password' : 'Reset your password'}
          </h2>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close"
          className="-m-1 rounded-lg p-1.5 text-stone-500 hover:bg-stone-100 hover:text-stone-900"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
            <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
          </svg>
        </button>
      </div>
      {step ? (
        <NewPasswordStep
          key={step.email + step.token}
          email={step.email}
          notice={step.notice}
          defaultToken={step.token}
          onBack={() => setStep(null)}
          onDone={(message) => onReset(step.email, message)}
        />
      ) : (
        <RequestStep
          defaultEmail={start.email}
          onCancel={onClose}
          onSent={(email, notice, token) => setStep({ email, notice, token: token ?? '' })}
        />
      )}
    </div>
  );
}

/** The two-step reset modal: request a code, then set a new password with it. */
export function ResetPasswordDialog({
  start,
  onClose,
  onReset,
}: {
  /** Null while closed. */
  start: ResetStart | null;
  onClose: () => void;
  onReset: (email: string, message: string) => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const open = start !== null;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // jsdom and very old browsers lack showModal.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      // showModal focuses the first button (Close); start in the first field instead.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl bg-white p-6 text-stone-900 shadow-2xl sm:p-8"
    >
      {start && <ResetFlow start={start} titleId={titleId} onClose={onClose} onReset={onReset} />}
    </dialog>
  );
}
