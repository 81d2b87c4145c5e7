/**
 * Under the prompt box of the style pages, where the prompt is every user's (the server's one
 * prompt rule): it shapes the headshots, and the results say which of its words did.
 */
export const STYLE_PROMPT_HINT =
  'Your description shapes your headshots (backdrop, light and framing on our studio engine); "person" stands for you. Under your headshots we say which words were used.';
