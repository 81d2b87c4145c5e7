import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, type User } from '@studioshot/contracts';
import { useId, useState, type ComponentProps } from 'react';
import { useForm } from 'react-hook-form';
import { Spinner } from '../../components/PageState';
import { FormError, PasswordField, PasswordToggle, TextField } from '../../components/TextField';
import { buttonClass } from '../../components/ui';
import { errorMessage } from '../../lib/api-client';
import { login, register } from './auth-api';
import {
  ZSignInFormSchema,
  ZSignUpFormSchema,
  type SignInForm,
  type SignUpForm,
} from './auth-schemas';

interface FormProps {
  defaultEmail: string;
  onEmailChange: (email: string) => void;
  /** Called right before the session is stored, so the page can navigate itself. */
  onSubmitting: () => void;
  onSuccess: (user: User) => void;
}

/** The e-mail field of both forms; each change is reported, so the other form starts with it. */
function EmailField({
  onEmailChange,
  onChange,
  ...props
}: Omit<ComponentProps<typeof TextField>, 'label'> & { onEmailChange: (email: string) => void }) {
  return (
    <TextField
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      {...props}
      onChange={(event) => {
        onChange?.(event);
        onEmailChange(event.target.value);
      }}
    />
  );
}

export function SignInForm({
  defaultEmail,
  onEmailChange,
  onSubmitting,
  onSuccess,
  onForgotPassword,
}: FormProps & { onForgotPassword: () => void }) {
  const [showPassword, setShowPassword] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const passwordId = useId();
  const {
    register: field,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInForm>({
    resolver: zodResolver(ZSignInFormSchema),
    defaultValues: { email: defaultEmail, password: '' },
  });

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    onSubmitting();
    try {
      onSuccess(await login(values));
    } catch (error) {
      setServerError(errorMessage(error, MESSAGES.authFailed));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Sign in">
      <EmailField error={errors.email?.message} onEmailChange={onEmailChange} {...field('email')} />
      <PasswordField
        id={passwordId}
        label="Password"
        visible={showPassword}
        autoComplete="current-password"
        error={errors.password?.message}
        trailing={
          <PasswordToggle
            visible={showPassword}
            onToggle={() => setShowPassword((v) => !v)}
            controls={passwordId}
          />
        }
        {...field('password')}
      />
      <div className="flex justify-end">
        <button
          type="button"
          onClick={onForgotPassword}
          className="rounded text-sm font-medium text-accent-700 underline-offset-4 hover:underline"
        >
          Forgot your password?
        </button>
      </div>
      <FormError message={serverError} />
      <button
        type="submit"
        disabled={isSubmitting}
        className={`${buttonClass('primary', 'lg')} w-full`}
      >
        {isSubmitting && <Spinner className="size-4" />}
        {isSubmitting ? 'Signing in...' : 'Sign In'}
      </button>
    </form>
  );
}

export function SignUpForm({ defaultEmail, onEmailChange, onSubmitting, onSuccess }: FormProps) {
  const [showPassword, setShowPassword] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const passwordId = useId();
  const confirmId = useId();
  const {
    register: field,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpForm>({
    resolver: zodResolver(ZSignUpFormSchema),
    defaultValues: { fullName: '', email: defaultEmail, password: '', confirmPassword: '' },
  });

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    onSubmitting();
    try {
      onSuccess(await register(values));
    } catch (error) {
      setServerError(errorMessage(error, MESSAGES.signupFailed));
    }
  });

  const toggle = (
    <PasswordToggle
      visible={showPassword}
      onToggle={() => setShowPassword((v) => !v)}
      controls={`${passwordId} ${confirmId}`}
    />
  );

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label="Create account">
      <TextField
        label="Full name"
        autoComplete="name"
        error={errors.fullName?.message}
        {...field('fullName')}
      />
      <EmailField error={errors.email?.message} onEmailChange={onEmailChange} {...field('email')} />
      <PasswordField
        id={passwordId}
        label="Password"
        visible={showPassword}
        autoComplete="new-password"
        hint="At least 6 characters."
        error={errors.password?.message}
        trailing={toggle}
        {...field('password')}
      />
      <PasswordField
        id={confirmId}
        label="Confirm password"
        visible={showPassword}
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...field('confirmPassword')}
      />
      <FormError message={serverError} />
      <button
        type="submit"
        disabled={isSubmitting}
        className={`${buttonClass('primary', 'lg')} w-full`}
      >
        {isSubmitting && <Spinner className="size-4" />}
        {isSubmitting ? 'Creating account...' : 'Create Account'}
      </button>
    </form>
  );
}
