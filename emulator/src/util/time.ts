/** RFC 3339 in UTC with milliseconds, the emulator's one timestamp format. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
