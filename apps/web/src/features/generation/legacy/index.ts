// The entry of the older generation pages' pieces; the rest of this folder is their own.
export { STYLE_PROMPT_HINT } from './custom-prompt';
export { GenerateRow } from './GenerateRow';
export { GenerationOutcome } from './GenerationOutcome';
export { ModelCards } from './ModelCards';
