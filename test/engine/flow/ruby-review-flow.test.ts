import { describe, expect, it } from 'vitest';
import { reviewChange } from '../../../src/engine/review-change.js';
import { addedFile } from './flows-of.js';

const SOURCE = `class Tools < Sinatra::Base
  configure do |c|
    record(:configure) { |app| app.instance_exec(app, &block) }
  end

  post "/run" do
    cmd = params[:cmd]
    parts = cmd.split(" ")
    system(parts[0])
  end
end`;

const added = (path: string) => addedFile(path, SOURCE);

describe('Ruby flow findings in a review', () => {
  it('reports a command the pattern rules miss, naming the source line, and no eval on instance_exec', () => {
    const { findings } = reviewChange(
      { files: [added('app/tools.rb')] },
      { checkSecurity: true, checkPerformance: false },
    );
    const security = findings.filter((f) => f.type === 'security');
    expect(security.map((f) => `${f.ruleId}@${f.line}`)).toEqual(['rb.flow.command-injection@9']);
    expect(security[0]).toMatchObject({ severity: 'critical', cwe: 'CWE-78', cvssScore: 9.8 });
    expect(security[0]?.message).toContain('`cmd` comes from a request parameter on line 7');
  });

  it('leaves Ruby test files alone', () => {
    const { findings } = reviewChange(
      { files: [added('spec/tools_spec.rb')] },
      { checkSecurity: true, checkPerformance: false },
    );
    expect(findings.filter((f) => f.ruleId.includes('.flow.'))).toEqual([]);
  });
});
