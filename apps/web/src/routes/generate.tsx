import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PageState } from '../components/PageState';
import { TemplateStudio } from '../features/generation/studio/TemplateStudio';
import { useProfile } from '../features/payments/hooks';
import { useUserModels } from '../features/training/hooks';

/** Model data refreshes on focus and every 30 s (api spec 7.5). */
const MODELS_REFRESH_MS = 30_000;

function preselectedModelId(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const id = (state as Record<string, unknown>).modelId;
  return typeof id === 'string' ? id : null;
}

/**
 * /generate, the template studio (product spec: Template generation page). Signed-out visitors
 * are sent to /auth by the protection wrapper; then 'Loading your trained models...'; without a
 * completed model, or when the model list cannot be read (api spec, error handling), /upload.
 * The profile is read alongside, so the studio opens on the profile's gender.
 */
export function Component() {
  const models = useUserModels({ refetchInterval: MODELS_REFRESH_MS });
  // The Male/Female toggle starts at the profile's gender: wait for the profile (usually cached)
  // rather than flip the carousel when it lands. Without it the stored user decides.
  const profile = useProfile();
  const location = useLocation();
  const navigate = useNavigate();
  const completed = models.data?.filter((model) => model.status === 'completed') ?? null;
  const toUpload = (models.isError && !models.data) || completed?.length === 0;

  useEffect(() => {
    if (toUpload) void navigate('/upload', { replace: true });
  }, [toUpload, navigate]);

  if (!completed || completed.length === 0 || profile.isPending) {
    return (
      <>
        <title>Generate AI Headshots · Studioshot</title>
        <PageState title="Loading your trained models..." busy />
      </>
    );
  }
  return <TemplateStudio models={completed} initialModelId={preselectedModelId(location.state)} />;
}
