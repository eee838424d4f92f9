/**
 * Waits for a condition a test cannot be told about directly (a count in the emulator's stats, a
 * line in a CLI's output), checking it again after each short pause. No deadline of its own: a
 * condition that never comes is the test's timeout, so a slow machine only makes it wait longer.
 */
export async function until(condition: () => boolean | Promise<boolean>, pauseMs = 20): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
