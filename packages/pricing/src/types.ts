export type PlanType = 'free' | 'starter' | 'professional' | 'premium';
