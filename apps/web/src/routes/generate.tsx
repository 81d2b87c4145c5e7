import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useGenerationModels } from '../features/generation/model-choice';
import { ModelsLoading } from '../features/generation/ModelStates';
import { TemplateStudio } from '../features/generation/studio';
import { useProfile } from '../features/auth/use-profile';

/**
 * /generate, the template studio (product spec: Template generation page). Signed-out visitors
 * are sent to /auth by the protection wrapper; then 'Loading your trained models...'; without a
 * completed model, or when the model list cannot be read (api spec, error handling), /upload.
 * The profile is read alongside, so the studio opens on the profile's gender.
 */
export function Component() {
  const { models, completed, initialModelId } = useGenerationModels();
  // The Male/Female toggle starts at the profile's gender: wait for the profile (usually cached)
  // rather than flip the carousel when it lands. Without it the stored user decides.
  const profile = useProfile();
  const navigate = useNavigate();
  const toUpload = (models.isError && !models.data) || completed?.length === 0;

  useEffect(() => {
    if (toUpload) void navigate('/upload', { replace: true });
  }, [toUpload, navigate]);

  if (!completed || completed.length === 0 || profile.isPending) {
    return (
      <ModelsLoading
        title="Loading your trained models..."
        pageTitle="Generate AI Headshots · Studioshot"
      />
    );
  }
  return <TemplateStudio models={completed} initialModelId={initialModelId} />;
}
