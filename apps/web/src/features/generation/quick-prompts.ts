import type { QuickPromptCategory } from '@studioshot/contracts';

/**
 * The quick prompt categories of /generate-trained (product spec): three per style, 4 sample
 * prompts each. The same data as packages/templates (quick-prompts.test.ts holds them equal); the
 * web app does not bundle that package's 200 KB template library for these few lines.
 */
export const QUICK_PROMPTS: readonly QuickPromptCategory[] = [
  {
    id: 'corporate_office',
    name: 'Corporate Office',
    style_id: 'professional',
    prompts: [
      'professional headshot of person in a tailored navy suit, modern glass office softly blurred behind, soft window light, confident approachable smile',
      'corporate headshot of person on a neutral grey studio backdrop, dark blazer and crisp white shirt, classic three-quarter lighting, sharp focus on the eyes',
      'person standing in a bright open-plan office in business attire, natural daylight, friendly professional expression, shallow depth of field',
      'clean LinkedIn headshot of person on a light grey seamless background, charcoal suit, even studio lighting, warm confident look',
    ],
  },
  {
    id: 'business_casual',
    name: 'Business Casual',
    style_id: 'professional',
    prompts: [
      'business casual headshot of person in a navy sweater over a collared shirt, exposed brick loft softly blurred, warm window light, relaxed genuine smile',
      'person in a casual blazer and plain t-shirt outdoors, green trees in soft bokeh, open shade lighting, friendly approachable expression',
      'headshot of person in a coworking cafe, denim shirt, warm pendant lights blurred behind, natural light, easy confident smile',
      'smart casual portrait of person in an open-collar shirt on a soft beige studio backdrop, gentle wraparound light, warm welcoming expression',
    ],
  },
  {
    id: 'industry_specific',
    name: 'Industry Specific',
    style_id: 'professional',
    prompts: [
      'healthcare headshot of person in a white coat, bright clean clinic background, soft even lighting, kind reassuring smile',
      'attorney headshot of person in a dark suit, wood-panelled law library blurred behind, warm directional light, calm authoritative expression',
      'real estate agent headshot of person in a bright welcoming living room, smart blazer, soft window light, big trustworthy smile',
      'software engineer headshot of person in a quarter-zip sweater, modern tech office softly blurred, cool daylight, focused friendly expression',
    ],
  },
  {
    id: 'executive_suite',
    name: 'Executive Suite',
    style_id: 'executive',
    prompts: [
      'executive headshot of person in a corner office high above the city, skyline blurred through the glass, tailored dark suit, strong window light, self-assured expression',
      'C-suite portrait of person on a deep charcoal backdrop, impeccably tailored suit, sculpted key light with a subtle rim, steady commanding gaze',
      'person at the head of a walnut boardroom table, leather chairs softly blurred, warm lamplit key light, gracious authority',
      'board of directors headshot of person on a slate grey studio backdrop, dark suit, crisp contrast, poised composed expression',
    ],
  },
  {
    id: 'leadership_style',
    name: 'Leadership Style',
    style_id: 'executive',
    prompts: [
      'dark moody leadership portrait of person on a near-black background, single side light with deep shadows, cool rim light, intense focused gaze',
      'Rembrandt-lit portrait of person on a warm brown painterly backdrop, dark suit, triangle of light on the cheek, dignified expression',
      'black and white leadership portrait of person on a mid-grey backdrop, classic sculpted lighting, rich tonal range, direct steady gaze',
      'founder portrait of person outdoors at golden hour, warm amber bokeh, unstructured blazer, backlit hair, optimistic visionary expression',
    ],
  },
  {
    id: 'industry_authority',
    name: 'Industry Authority',
    style_id: 'executive',
    prompts: [
      'keynote speaker portrait of person under a focused spotlight, dark stage-blue backdrop, blue rim light, energised confident expression',
      'financial services executive headshot of person on a cool steel-grey gradient, grey suit and navy tie, precise lighting, credible measured expression',
      'hospital chief executive headshot of person in a bright modern corridor, white coat over a dark suit, soft daylight, assured compassionate look',
      'managing partner portrait of person in a mahogany library, leather books blurred behind, warm lamplight, seasoned composed gaze',
    ],
  },
  {
    id: 'creative_professional',
    name: 'Creative Professional',
    style_id: 'creative',
    prompts: [
      'creative director headshot of person against raw concrete, black turtleneck, clean directional daylight, off-centre composition, considered expression',
      'designer headshot of person on a soft pastel pink-to-blue gradient, colourful cardigan, bright fashion lighting, curious cheerful expression',
      'photographer portrait of person in front of a hand-painted canvas backdrop, earthy knitwear, soft painterly window light, warm smile',
      'minimal gallery-style headshot of person against pure white, oversized black blazer, shadowless light, generous negative space',
    ],
  },
  {
    id: 'artistic_expression',
    name: 'Artistic Expression',
    style_id: 'creative',
    prompts: [
      'film noir portrait of person in black and white, hard angled key light, deep shadows, bright edge light, enigmatic gaze',
      'moody artist portrait of person on black, hard split light, purple gel rim light on the far side, soulful album-cover mood',
      'vintage 1970s film-style portrait of person on a warm mottled backdrop, matte blacks and gentle grain, relaxed nostalgic expression',
      'chiaroscuro portrait of person on dark textured plaster, light carving half the face from shadow, painterly drama',
    ],
  },
  {
    id: 'modern_creative',
    name: 'Modern Creative',
    style_id: 'creative',
    prompts: [
      'bold neon headshot of person on a magenta-to-cyan gradient, coloured gel lighting, cyan rim light, playful confident expression',
      'cinematic teal-and-orange portrait of person in a leather jacket, hard side light with an orange rim, movie-poster mood',
      'creative headshot of person on a city rooftop at sunset, coral sky in soft bokeh, warm backlight, easy magnetic smile',
      'electric duotone portrait of person in cobalt and hot pink light, saturated gradient backdrop, fierce confident expression',
    ],
  },
];

/** The categories under one style, in the spec's order. */
export function quickPromptsFor(styleId: string): QuickPromptCategory[] {
  return QUICK_PROMPTS.filter((category) => category.style_id === styleId);
}
