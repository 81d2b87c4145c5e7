// Test fixtures for the generation screens (imported by tests only).
import type { GeneratedImage, GenerationResult, Style } from './generation-api';

export const GENERATION_ID = '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
export const MODEL_ID = '3a1f0c2e-8b4d-4c6e-9f10-2b3c4d5e6f70';

/** An image id whose last part counts up, so tests can tell the four apart. */
export function imageId(n: number, generation = GENERATION_ID): string {
  return `${generation.slice(0, 24)}${String(n).padStart(12, '0')}`;
}

export function generatedImage(n: number, overrides: Partial<GeneratedImage> = {}): GeneratedImage {
  const id = overrides.id ?? imageId(n, overrides.generation_id);
  return {
    id,
    generation_id: GENERATION_ID,
    model_id: MODEL_ID,
    url: `/images/generated/${id}?token=t${n}`,
    thumbnail_url: `/images/generated/${id}/thumbnail?token=t${n}`,
    filename: `headshot-7d1e2f3a-${n + 1}.jpg`,
    width: 1024,
    height: 1024,
    size_bytes: 180_000,
    position: n,
    template_id: 'prof_1',
    variant: 0,
    identity_score: 0.9 - n * 0.05,
    favorite: false,
    created_at: '2026-11-23T10:02:00.000Z',
    ...overrides,
  };
}

export function fourImages(generation = GENERATION_ID): GeneratedImage[] {
  return [0, 1, 2, 3].map((n) =>
    generatedImage(n, { generation_id: generation, id: imageId(n, generation) }),
  );
}

/** A Generate answer: 200 completed with four images unless told otherwise. */
export function generationResult(overrides: Partial<GenerationResult> = {}): GenerationResult {
  const id = overrides.id ?? GENERATION_ID;
  const status = overrides.status ?? 'completed';
  const images = overrides.images ?? (status === 'completed' ? fourImages(id) : []);
  return {
    id,
    generation_id: id,
    task_id: id,
    task_type: 'generation',
    status,
    progress: status === 'completed' ? 100 : 0,
    message: status === 'completed' ? 'Done' : 'Waiting for a worker',
    error_message: null,
    model_id: MODEL_ID,
    prompt: 'professional headshot of person',
    prompt_applied: false,
    prompt_note: "No prompt was sent, so the style's own look was used.",
    items: [{ template_id: 'prof_1', variant: 0, prompt: 'professional headshot of person' }],
    images,
    success: status === 'completed' && images.length > 0,
    generation_time: status === 'completed' ? 14.2 : null,
    credits_used: 1,
    credits_refunded: 0,
    images_dropped: 0,
    cost: 1.25,
    created_at: '2026-11-23T10:00:00.000Z',
    completed_at: status === 'completed' ? '2026-11-23T10:00:14.200Z' : null,
    ...overrides,
  };
}

export const STYLES: Style[] = [
  {
    id: 'professional',
    name: 'Professional / Corporate',
    description: 'Polished, approachable headshots for corporate profiles.',
    flux_description: 'Polished, approachable headshots in business attire for corporate profiles.',
    use_cases: ['LinkedIn profile', 'Company website', 'Corporate directory'],
  },
  {
    id: 'executive',
    name: 'Executive / Leadership',
    description: 'Authoritative portraits for leaders and boards.',
    flux_description: 'Authoritative portraits in tailored attire for leaders and boards.',
    use_cases: ['Leadership team page', 'Annual report', 'Speaker bio'],
  },
  {
    id: 'creative',
    name: 'Creative / Modern',
    description: 'Expressive, contemporary looks for creative work.',
    flux_description: 'Expressive, contemporary looks in creative wardrobe for creative work.',
    use_cases: ['Portfolio', 'Personal brand', 'Social media profile'],
  },
];
