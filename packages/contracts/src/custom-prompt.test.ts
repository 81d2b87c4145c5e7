import { describe, expect, it } from 'vitest';
import { customPromptApplies } from './custom-prompt.js';

describe('customPromptApplies', () => {
  it('premium annual plans and debug accounts only', () => {
    expect(customPromptApplies({ plan_type: 'premium', subscription_interval: 'annual' })).toBe(
      true,
    );
    expect(customPromptApplies({ plan_type: 'premium', subscription_interval: 'monthly' })).toBe(
      false,
    );
    expect(customPromptApplies({ plan_type: 'premium', subscription_interval: null })).toBe(false);
    expect(
      customPromptApplies({ plan_type: 'professional', subscription_interval: 'annual' }),
    ).toBe(false);
    expect(customPromptApplies({ plan_type: 'free', is_debug: true })).toBe(true);
    expect(customPromptApplies({ plan_type: 'free', is_debug: null })).toBe(false);
  });

  it('no account: no custom prompt', () => {
    expect(customPromptApplies(null)).toBe(false);
    expect(customPromptApplies(undefined)).toBe(false);
  });
});
