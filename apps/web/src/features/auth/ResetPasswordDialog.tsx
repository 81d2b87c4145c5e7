import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES } from '@studioshot/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { Modal } from '../../components/Modal';
import { useForm } from 'react-hook-form';
import { Spinner } from '../../components/PageState';
import { FormError, PasswordField, PasswordToggle, TextField } from '../../components/TextField';
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
      <PasswordField
        id={newId}
        label="New password"
        visible={showPassword}
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
      <PasswordField
        id={confirmId}
        label="Confirm new password"
        visible={showPassword}
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

/** One run of the flow: its state starts fresh each time the dialog opens. */
function ResetFlow({
  start,
  onClose,
  onReset,
}: {
  start: ResetStart;
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
    <Modal
      open
      onClose={onClose}
      eyebrow={`Step ${step ? 2 : 1} of 2`}
      title={step ? 'Set a new password' : 'Reset your password'}
    >
      <div ref={containerRef}>
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
    </Modal>
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
  return start ? <ResetFlow start={start} onClose={onClose} onReset={onReset} /> : null;
}
