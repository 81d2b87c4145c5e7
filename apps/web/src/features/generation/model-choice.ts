import { useState } from 'react';
import { useLocation } from 'react-router';
import { useUserModels } from '../training/hooks';
import type { UserModel } from '../training/training-api';
import { shortId } from '../training/training-logic';

/**
 * Model data refreshes on focus and every 30 s on the generation pages
 * (docs/spec/calls.md#75-generation).
 */
const MODELS_REFRESH_MS = 30_000;

/** The model a page was sent to generate with (`{modelId}` in the navigation state), if any. */
export function preselectedModelId(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const id = (state as Record<string, unknown>).modelId;
  return typeof id === 'string' ? id : null;
}

/**
 * A model-based generation page's models: the list query, the completed models (null until the
 * list is read) and the model the page was sent with.
 */
export function useGenerationModels() {
  const models = useUserModels({ refetchInterval: MODELS_REFRESH_MS });
  const location = useLocation();
  return {
    models,
    completed: models.data?.filter((model) => model.status === 'completed') ?? null,
    initialModelId: preselectedModelId(location.state),
  };
}

/**
 * The model chosen among `models` (at least one): the one the page was sent with when it is
 * there, else the first.
 */
export function useModelChoice(
  models: readonly UserModel[],
  initialModelId: string | null,
): ModelChoice {
  const [modelId, setModelId] = useState(() =>
    models.some((model) => model.id === initialModelId) ? initialModelId! : models[0]!.id,
  );
  const model = models.find((m) => m.id === modelId) ?? models[0]!;
  return { models, model, setModelId };
}

/** The models to choose from, the chosen one, and how to choose another. */
export interface ModelChoice {
  models: readonly UserModel[];
  model: UserModel;
  setModelId: (modelId: string) => void;
}

/** A model's name, or for one without a name the first 8 characters of its id. */
export function modelName(model: Pick<UserModel, 'id' | 'name'>): string {
  return model.name || `Model ${shortId(model.id)}`;
}
