import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The dashboard in a real browser: Debian's chromium (`.ci/run` installs it when missing) driven
 * by playwright-core, axe-core run in the page on every screen, and a screenshot of each screen
 * written to test-results/dashboard/ (git-ignored) for a reviewer to look at.
 */
export async function launchChromium(): Promise<Browser> {
  let executablePath: string;
  try {
    executablePath = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('chromium is not installed: apt-get install -y chromium (.ci/run does it)');
  }
  // Chromium's sandbox refuses to run as root (CI and this machine run as root).
  const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  return chromium.launch({ executablePath, args });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core in the page (evaluated through the browser's protocol, which the page's CSP does
 * not govern, so the page itself keeps its strict policy) and fails on any serious or critical
 * violation, listing them.
 */
export async function expectAccessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target),
    }));
  });
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results/dashboard');

/** Every screen: axe first, then a full-page screenshot named after it and the database. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page);
  const folder = path.join(SCREENSHOTS, process.env.DATABASE_URL ? 'postgresql' : 'pglite');
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true });
}

/** Page errors and console errors (a CSP refusal is one) collected for the test to assert none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}
