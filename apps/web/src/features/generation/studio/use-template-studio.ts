import type { TemplateGender } from '@studioshot/templates';
import { useCallback, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import {
  CAROUSEL_LOCK_MS,
  createMoveLock,
  initialSelection,
  studioReducer,
  studioTemplates,
  type CategoryFilter,
} from './studio-logic';

export interface TemplateStudioOptions {
  initialGender: TemplateGender;
  /** Math.random unless a test says otherwise. */
  random?: () => number;
  lockMs?: number;
  now?: () => number;
}

/**
 * The studio's selection: filters, the carousel's centre (the selected template), its variant
 * and the custom prompt. Moves (prev/next, dots, keys, swipes) honour the 300 ms lock and answer
 * whether they happened.
 */
export function useTemplateStudio({
  initialGender,
  random = Math.random,
  lockMs = CAROUSEL_LOCK_MS,
  now = Date.now,
}: TemplateStudioOptions) {
  const [state, dispatch] = useReducer(studioReducer, undefined, () =>
    initialSelection(initialGender, 'all', random()),
  );
  const [lock] = useState(() => createMoveLock(lockMs));
  const deps = useRef({ random, now });
  // A layout effect: current before any click can reach a move after this render.
  useLayoutEffect(() => {
    deps.current = { random, now };
  });

  const templates = useMemo(
    () => studioTemplates(state.gender, state.category),
    [state.gender, state.category],
  );
  const template = templates[state.index] ?? null;

  const move = useCallback(
    (delta: number): boolean => {
      if (!lock.tryMove(deps.current.now())) return false;
      dispatch({ type: 'move', delta, roll: deps.current.random() });
      return true;
    },
    [lock],
  );

  const goTo = useCallback(
    (index: number): boolean => {
      if (index === state.index) return false;
      if (!lock.tryMove(deps.current.now())) return false;
      dispatch({ type: 'go-to', index, roll: deps.current.random() });
      return true;
    },
    [state.index, lock],
  );

  // A new list starts at its first template at once: a filter is not a carousel move.
  const setGender = useCallback(
    (gender: TemplateGender) => {
      lock.reset();
      dispatch({ type: 'gender', gender, roll: deps.current.random() });
    },
    [lock],
  );
  const setCategory = useCallback(
    (category: CategoryFilter) => {
      lock.reset();
      dispatch({ type: 'category', category, roll: deps.current.random() });
    },
    [lock],
  );
  const chooseVariant = useCallback(
    (variant: number) => dispatch({ type: 'variant', variant }),
    [],
  );
  const setCustomPrompt = useCallback((prompt: string) => dispatch({ type: 'prompt', prompt }), []);

  return {
    ...state,
    templates,
    template,
    move,
    goTo,
    setGender,
    setCategory,
    chooseVariant,
    setCustomPrompt,
  };
}
export type TemplateStudioState = ReturnType<typeof useTemplateStudio>;
