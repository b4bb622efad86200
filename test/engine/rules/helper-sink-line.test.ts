import { describe, expect, it } from 'vitest';
import { securityFindings } from '../flow/flows-of.js';

/** An echo handler calling a shell helper of the file with request input on line 16. */
const file = (helper: string, call: string) => `package git

import (
	"fmt"
	"os/exec"

	"github.com/labstack/echo/v4"
)

${helper}

func Log(c echo.Context) error {
	ref := c.QueryParam("ref")
	out, err := ${call}
	_ = out
	return err
}
`;

const lines = (content: string) => securityFindings('internal/git/log.go', content).map((f) => `${f.line} ${f.ruleId}`);

describe('a shell helper of the file called with request input', () => {
  it('is reported inside when it writes the command text around its parameter', () => {
    const helper = `func gitLog(ref string) ([]byte, error) {
	return exec.Command("bash", "-c", "git log --oneline "+ref).Output()
}`;
    expect(lines(file(helper, 'gitLog(ref)'))).toEqual(['11 go.command-injection']);
  });

  it('is reported at the call when the caller writes the command (a format or the whole text)', () => {
    const formatted = `func shell(format string, args ...any) ([]byte, error) {
	return exec.Command("bash", "-c", fmt.Sprintf(format, args...)).Output()
}`;
    expect(lines(file(formatted, 'shell("git log %s", ref)'))).toEqual(['16 go.command-injection']);
    const whole = `func shell(command string) ([]byte, error) {
	return exec.Command("sh", "-c", command).Output()
}`;
    expect(lines(file(whole, 'shell("git log " + ref)'))).toEqual(['16 go.command-injection']);
  });
});
