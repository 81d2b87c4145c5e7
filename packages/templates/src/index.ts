/** The 60 built-in style templates arrive with the generation capability. */
export const TEMPLATE_COUNT = 60;
export const TEMPLATE_CATEGORIES = ['professional', 'executive', 'creative'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** Category of template prof_N by the spec's numbering (1-20, 21-40, 41-60). */
export function templateCategory(index: number): TemplateCategory {
  if (!Number.isInteger(index) || index < 1 || index > TEMPLATE_COUNT) {
    throw new RangeError(`template index out of range: ${index}`);
  }
  return index <= 20 ? 'professional' : index <= 40 ? 'executive' : 'creative';
}
