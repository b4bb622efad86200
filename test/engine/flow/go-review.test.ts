import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../../src/engine/review-change.js';
import { addedFile } from './flows-of.js';

const SOURCE = `package api

import (
	"net/http"
	"os/exec"
)

func restart(w http.ResponseWriter, r *http.Request) {
	service := r.FormValue("service")
	args := []string{"systemctl", "restart"}
	args = append(args, service)
	cmd := args[2]
	exec.Command(cmd).Run()
	exec.Command("sh", "-c", r.FormValue("script")).Run()
}
`;

const added = (path: string) => addedFile(path, SOURCE);

describe('Go flow findings in a review', () => {
  it('reports a value through a slice on the sink line with a go.flow rule id, naming the source line', () => {
    const { findings } = reviewChange(
      { files: [added('api/restart.go')] },
      { checkSecurity: true, checkPerformance: false },
    );
    const flow = findings.filter((f) => f.ruleId.startsWith('go.flow.'));
    expect(flow.map((f) => [f.ruleId, f.line, f.cwe])).toEqual([['go.flow.command-injection', 13, 'CWE-78']]);
    expect(flow[0]?.message).toContain('`service` comes from a request parameter on line 9');
  });

  it("keeps the pattern rule's comment on a line both flag", () => {
    const { findings } = reviewChange(
      { files: [added('api/restart.go')] },
      { checkSecurity: true, checkPerformance: false },
    );
    expect(findings.filter((f) => f.line === 14).map((f) => f.ruleId)).toEqual(['go.command-injection']);
  });

  it('leaves Go test files alone', () => {
    const { findings } = reviewChange(
      { files: [added('api/restart_test.go')] },
      { checkSecurity: true, checkPerformance: false },
    );
    expect(findings.filter((f) => f.ruleId.startsWith('go.flow.'))).toEqual([]);
  });
});
