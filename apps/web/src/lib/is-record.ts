/** Whether `value` is an object whose fields can be read (an answer's body, say). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
