import { useState } from 'react';
import type { UserModel } from '../training/training-api';
import { generateTrained } from './generation-api';
import { useGenerationAccount, useStyleChoice } from './hooks';
import { useModelChoice } from './model-choice';
import { usePageGeneration } from './use-page-generation';

/** What a page that generates from a trained model opens with. */
export interface TrainedStudioProps {
  /** The completed models, at least one. */
  models: UserModel[];
  /** The model the page was sent with, chosen when it is one of them. */
  initialModelId: string | null;
}

/**
 * The state of the pages that generate from a trained model with a style and a prompt
 * (/generate-trained and its earlier layout, on the same call): the account and its credits, the
 * chosen model and style, the prompt, and the generation, which needs a credit.
 */
export function useTrainedStudio(
  { models, initialModelId }: TrainedStudioProps,
  readyMessage: string,
) {
  const { account, credits } = useGenerationAccount();
  const choice = useModelChoice(models, initialModelId);
  const { model } = choice;
  const style = useStyleChoice();
  const [prompt, setPrompt] = useState('');
  const generation = usePageGeneration(
    (key) =>
      generateTrained(
        { modelId: model.id, style: style.styleId, prompt, triggerWord: model.trigger_word },
        key,
      ),
    { readyMessage },
  );
  return {
    account,
    credits,
    outOfCredits: credits <= 0,
    choice,
    model,
    ...style,
    prompt,
    setPrompt,
    generation,
  };
}
