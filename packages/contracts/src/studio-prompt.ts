import vocabulary from '../studio-prompt-words.json' with { type: 'json' };

/**
 * The words of a prompt the studio engine renders, as it reads them (its look rules, mirrored in
 * studio-prompt-words.json and held equal by the engine's tests): each matched rule's words, one
 * rule per group (one setting, one framing), then a backdrop colour ("navy background").
 */
export function studioPromptWords(prompt: string): string[] {
  const text = prompt.toLowerCase();
  const words = new Set(text.match(/[a-z&]+/g) ?? []);
  const recognised: string[] = [];
  const matchedGroups = new Set<string>();
  for (const rule of vocabulary.rules) {
    if (rule.group !== null && matchedGroups.has(rule.group)) continue;
    // A single word matches a whole word; a phrase or a hyphenated word ("close-up") anywhere.
    const matched = rule.words.filter(
      (word) => words.has(word) || (!/^[a-z&]+$/.test(word) && text.includes(word)),
    );
    if (matched.length === 0) continue;
    if (rule.group !== null) matchedGroups.add(rule.group);
    recognised.push(...matched);
  }
  const surfaces = vocabulary.surfaces.join('|');
  for (const colour of vocabulary.colours) {
    const found = new RegExp(`\\b${colour}\\b[^,.;]{0,24}\\b(${surfaces})\\b`).exec(text);
    if (found) {
      recognised.push(found[0]);
      break;
    }
  }
  return recognised;
}
