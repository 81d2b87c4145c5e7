/** Under the prompt box: whether what is typed there is used, in the account's case. */
export function customPromptHint(applies: boolean): string {
  return applies
    ? 'Your description is used as written; "person" stands for you.'
    : 'Descriptions are used as written on the Premium annual plan. Until then, your headshots follow the studio prompt of the style you chose.';
}
