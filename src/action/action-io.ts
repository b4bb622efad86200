import type { AnnotationProperties } from '@actions/core';

/**
 * What the runner needs of the Actions runtime. The entry passes @actions/core behind it, so the
 * runner itself is plain code over an interface (and a test can watch every call).
 */
export interface ActionIo {
  getInput(name: string): string;
  setSecret(secret: string): void;
  setOutput(name: string, value: string): void;
  info(message: string): void;
  error(message: string, properties?: AnnotationProperties): void;
  warning(message: string, properties?: AnnotationProperties): void;
  notice(message: string, properties?: AnnotationProperties): void;
  setFailed(message: string): void;
  writeSummary(markdown: string): Promise<void>;
}
