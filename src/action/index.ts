// The action's entry (action.yml runs the bundle of this file): the process around runAction.
import { coreIo } from './core-io.js';
import { runAction } from './run-action.js';

try {
  // Imported here: @actions/github reads the event file as it loads, and a broken one must end
  // the step with a message like every other failure.
  const github = await import('@actions/github');
  await runAction({ io: coreIo, env: process.env, github });
} catch (error) {
  // runAction reports every expected failure itself; this is for the runner's own files failing
  // (GITHUB_OUTPUT missing, say), so the step still ends with a message rather than a stack trace.
  coreIo.setFailed(`Redline action failed: ${(error as Error).message}`);
}
