/** Checkpoint ids are UUID v4s (seed 000's schema). */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** UUID v4 (version nibble 4, variant 8|9|a|b), either case. Checkpoint ids are file names, so nothing else is accepted. */
export function isUuidV4(value: unknown): value is string {
  return typeof value === 'string' && UUID_V4.test(value);
}
