import { SEVERITIES } from '../../common/severity.js';
import { FINDING_TYPES } from '../finding-types.js';
import type { ChangedFile, Finding } from '../types.js';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** Keeps the prompt within a budget: a review of a huge change reads its first files, not all. */
export const MAX_PROMPT_CHARS = 60_000;

/** `"a"|"b"`: the values the model may answer with. */
const oneOf = (values: readonly string[]) => values.map((v) => `"${v}"`).join('|');

const SYSTEM = [
  'You review pull requests. Report only real problems in the ADDED lines (those starting with +):',
  'security flaws, bugs, performance problems, and style issues a careful maintainer would raise.',
  'Do not repeat the findings already listed. Do not comment on unchanged code. No praise.',
  'Answer with JSON only: {"summary": string, "comments": [{"file": string, "line": number (the new',
  `file line number of an added line), "type": ${oneOf(FINDING_TYPES)},`,
  `"severity": ${oneOf(SEVERITIES)}, "message": string (what is wrong and why),`,
  '"suggestion"?: string (replacement code for that line)}]}. The summary says what the change does',
  'and its most important problems in at most three sentences.',
].join(' ');

/** The chat messages for one review: the diff of the reviewed files and what the rules already found. */
export function buildLlmPrompt(files: readonly ChangedFile[], ruleFindings: readonly Finding[]): ChatMessage[] {
  let budget = MAX_PROMPT_CHARS;
  const parts: string[] = [];
  for (const file of files) {
    if (file.patch === undefined) continue;
    const block = `--- ${file.path}\n${file.patch}\n`;
    if (block.length > budget) break;
    budget -= block.length;
    parts.push(block);
  }
  const known = ruleFindings.map((f) => `- ${f.file}:${f.line} ${f.severity} ${f.type}: ${f.message}`).join('\n');
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `Diff:\n${parts.join('\n')}\nAlready found by static rules:\n${known === '' ? '(none)' : known}`,
    },
  ];
}
