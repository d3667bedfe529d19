import { ensureBuilt } from './server';

/**
 * Builds dist/ once, before any story starts: the stories run beside the other files, two at a
 * time at most, and each would otherwise find the build missing at once and build it too.
 */
export default async function setup(): Promise<void> {
  await ensureBuilt();
}
