import * as core from '@actions/core';
import type { ActionIo } from './action-io.js';

/** ActionIo over @actions/core: workflow commands on stdout, files named by GITHUB_* variables. */
export const coreIo: ActionIo = {
  getInput: (name) => core.getInput(name),
  setSecret: (secret) => core.setSecret(secret),
  setOutput: (name, value) => core.setOutput(name, value),
  info: (message) => core.info(message),
  error: (message, properties) => core.error(message, properties),
  warning: (message, properties) => core.warning(message, properties),
  notice: (message, properties) => core.notice(message, properties),
  setFailed: (message) => core.setFailed(message),
  async writeSummary(markdown) {
    // Outside a runner (a local try-out) there is no summary file; that is not a failure.
    if (!process.env.GITHUB_STEP_SUMMARY) {
      core.info('GITHUB_STEP_SUMMARY is not set: no job summary written');
      return;
    }
    await core.summary.addRaw(markdown, true).write();
  },
};
