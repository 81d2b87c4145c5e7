import { describe, expect, it } from 'vitest';
import { studioPromptWords } from './studio-prompt.js';

// The same cases as the engine's own (apps/worker/engine/tests/test_prompt_looks.py): the API
// names the words the engine renders, read the same way.
describe('studioPromptWords', () => {
  it('names the rendered words in rule order, one setting, then a backdrop colour', () => {
    expect(
      studioPromptWords('dark moody portrait in an office on a navy background, close-up'),
    ).toEqual(['office', 'dark', 'moody', 'close-up', 'navy background']);
    expect(studioPromptWords('outdoors near the office')).toEqual(['office']);
    expect(studioPromptWords('professional headshot in business attire')).toEqual(['business']);
    expect(studioPromptWords('a photo of person, smiling')).toEqual([]);
  });

  it('reads phrases and hyphenated words anywhere, single words only whole', () => {
    expect(studioPromptWords('black & white, low-key')).toEqual(['low-key', 'black & white']);
    expect(studioPromptWords('officers in darkness')).toEqual([]);
  });
});
