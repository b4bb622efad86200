import { describe, expect, it } from 'vitest';
import { flowsOf, fullFlowsOf, securityFindings } from './flows-of.js';

describe('fields a constructor fills from request input', () => {
  it('Ruby: a service object made with params carries them in its instance variables to another method', () => {
    const source = `class ArchiveService
  def initialize(params)
    @before = params[:before]
    @table = "events"
  end

  def call
    ActiveRecord::Base.connection.execute("DELETE FROM #{@table} WHERE created_at < '#{@before}'")
  end

  def count
    ActiveRecord::Base.connection.execute("SELECT count(*) FROM #{@table}")
  end
end
`;
    expect(fullFlowsOf('ruby', source)).toEqual([
      {
        sinkLine: 8,
        sourceLine: 2,
        sourceDescription: 'a request parameter',
        cwe: 89,
        sinkKind: 'SQL query',
        variable: 'params',
      },
    ]);
  });

  it('Ruby: a method parameter named params outside a constructor is not request input by its name', () => {
    expect(
      flowsOf(
        'ruby',
        `class Mailer
  def deliver(params)
    system("sendmail #{params[:to]}")
  end
end
`,
      ),
    ).toEqual([]);
  });

  it('Ruby: a field set in one path of the constructor and returned from it (its last statement) is kept', () => {
    expect(
      flowsOf(
        'ruby',
        `class Export
  def initialize(params)
    @name = params.fetch(:name, "report") if params.key?(:name)
  end

  def run
    system("zip #{@name}.zip data")
  end
end
`,
      ),
    ).toEqual(['78@7<-2']);
  });

  it('Python: self.x set from request.args in __init__ reaches a query in another method; a constant field does not', () => {
    expect(
      flowsOf(
        'python',
        `from flask import request

class Search:
    def __init__(self):
        self.term = request.args.get("q")
        self.table = "items"

    def run(self, db):
        db.execute("SELECT * FROM %s" % self.table)
        return db.execute("SELECT * FROM t WHERE name = '%s'" % self.term)
`,
      ),
    ).toEqual(['89@10<-5']);
  });

  it('JavaScript: this.x set from req.query in the constructor reaches exec in a method; only that class', () => {
    expect(
      flowsOf(
        'javascript',
        `const { exec } = require('child_process');
class Job {
  constructor(req) {
    this.name = req.query.name;
    this.safe = 'ls';
  }
  start() {
    exec('tar czf ' + this.name);
    exec(this.safe);
  }
}
class Other {
  start() {
    exec('tar czf ' + this.name);
  }
}
`,
      ),
    ).toEqual(['78@8<-4']);
  });

  it('Java: a field the constructor reads from the request reaches executeQuery in another method', () => {
    expect(
      flowsOf(
        'java',
        `import javax.servlet.http.HttpServletRequest;
import java.sql.*;
public class Lookup {
    private final String id;
    private final Connection conn;
    public Lookup(HttpServletRequest request, Connection conn) {
        this.id = request.getParameter("id");
        this.conn = conn;
    }
    public ResultSet find() throws SQLException {
        return conn.createStatement().executeQuery("SELECT * FROM t WHERE id = '" + this.id + "'");
    }
    public ResultSet all() throws SQLException {
        return conn.createStatement().executeQuery("SELECT * FROM t");
    }
}
`,
      ),
    ).toEqual(['89@11<-7']);
  });

  it('a field converted to a number in the constructor stays clean', () => {
    expect(
      flowsOf(
        'python',
        `from flask import request

class Page:
    def __init__(self):
        self.size = int(request.args.get("size", "10"))

    def rows(self, db):
        return db.execute("SELECT * FROM t LIMIT %s" % self.size)
`,
      ),
    ).toEqual([]);
  });
});

describe('fields every constructor fixes and nothing else writes', () => {
  const lines = (path: string, source: string) => securityFindings(path, source).map((f) => `${f.ruleId}@${f.line}`);

  it("prove a pattern rule's SQL match in another method (Ruby, Python, JavaScript)", () => {
    const ruby = (conversion: string, extra = '') => `class QuotaReport
  def initialize(account_id:)
    @account_id = ${conversion}
  end

  def rows
    ActiveRecord::Base.connection.select_all("SELECT day FROM quotas WHERE account_id = #{@account_id}").to_a
  end
${extra}end
`;
    expect(lines('app/services/quota_report.rb', ruby('Integer(account_id)'))).toEqual([]);
    expect(lines('app/services/quota_report.rb', ruby('account_id'))).toEqual(['rb.sql-injection@7']);
    // Written again by another method: the constructor's conversion no longer holds there.
    expect(
      lines(
        'app/services/quota_report.rb',
        ruby('Integer(account_id)', '\n  def retarget(other)\n    @account_id = other\n  end\n'),
      ),
    ).toEqual(['rb.sql-injection@7']);
    // Or open to writes from outside the class.
    expect(
      lines(
        'app/services/quota_report.rb',
        ruby('Integer(account_id)').replace('class QuotaReport\n', 'class QuotaReport\n  attr_accessor :account_id\n'),
      ),
    ).toEqual(['rb.sql-injection@8']);

    const python = (conversion: string) => `class Report:
    def __init__(self, conn, limit):
        self.conn = conn
        self.limit = ${conversion}

    def rows(self):
        return self.conn.execute(f"SELECT * FROM events LIMIT {self.limit}").fetchall()
`;
    expect(lines('app/report.py', python('int(limit)'))).toEqual([]);
    expect(lines('app/report.py', python('limit'))).toEqual(['py.sql-injection@7']);

    const js = (conversion: string) => `class Report {
  constructor(db, limit) {
    this.db = db;
    this.limit = ${conversion};
  }

  rows() {
    return this.db.query(\`SELECT * FROM events LIMIT \${this.limit}\`);
  }
}
module.exports = Report;
`;
    expect(lines('src/report.js', js('Number.parseInt(limit, 10)'))).toEqual([]);
    expect(lines('src/report.js', js('limit'))).toEqual(['js.sql-injection@8']);
  });
});
