/**
 * Every problem of the configuration at once, each naming its variable. In a file of its own so
 * that a command which reads no configuration (`redline review`) does not load the schema.
 */
export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}
