import { describe, expect, it } from 'vitest';
// The template library's own data: the web copy must not drift from it.
import library from '../../../../../packages/templates/data/templates.json' with { type: 'json' };
import { QUICK_PROMPTS, quickPromptsFor } from './quick-prompts';

describe('quick prompts', () => {
  it('are the template library’s, unchanged', () => {
    expect(QUICK_PROMPTS).toEqual(library.quick_prompts);
  });

  it('three categories per style as the spec names them, four prompts each', () => {
    expect(quickPromptsFor('professional').map((c) => c.name)).toEqual([
      'Corporate Office',
      'Business Casual',
      'Industry Specific',
    ]);
    expect(quickPromptsFor('executive').map((c) => c.name)).toEqual([
      'Executive Suite',
      'Leadership Style',
      'Industry Authority',
    ]);
    expect(quickPromptsFor('creative').map((c) => c.name)).toEqual([
      'Creative Professional',
      'Artistic Expression',
      'Modern Creative',
    ]);
    for (const category of QUICK_PROMPTS) expect(category.prompts).toHaveLength(4);
  });
});
