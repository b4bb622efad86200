import type { Rule } from '../rule-schema.js';

/**
 * Ruby and Rails rules, written with node kinds and fields (call: receiver, method, arguments).
 * Precision first: an injection is reported when the dangerous string is interpolated or
 * concatenated in the call itself, or when a value from `params` reaches the sink directly.
 */

/** An example inside a controller action, as it appears in a diff. */
const action = (body: string): string =>
  `class UsersController < ApplicationController\n  def show\n    ${body.replace(/\n/g, '\n    ')}\n  end\nend`;

const interpolated = { kind: 'string', has: { kind: 'interpolation' } };
const concatenated = {
  kind: 'binary',
  all: [
    { has: { field: 'operator', regex: '^\\+$' } },
    { has: { stopBy: 'end', kind: 'string' } },
    { has: { stopBy: 'end', any: [{ kind: 'identifier' }, { kind: 'call' }, { kind: 'element_reference' }] } },
  ],
};
const builtString = { any: [interpolated, concatenated] };

/** The first argument of the call matches `rule`. */
const firstArgument = (rule: Record<string, unknown>): Record<string, unknown> => ({
  has: { field: 'arguments', has: { nthChild: 1, ...rule } },
});

/** Methods whose block runs once per item. */
/** Inside a method (instance or singleton) that has `meta` among its parameters. */
const insideMethodWithParameter = (meta: string): Record<string, unknown> => ({
  inside: {
    stopBy: 'end',
    any: [{ kind: 'method' }, { kind: 'singleton_method' }],
    has: { field: 'parameters', has: { stopBy: 'end', kind: 'identifier', pattern: meta } },
  },
});

const ITERATION_METHODS =
  '^(each|each_with_index|each_with_object|map|flat_map|collect|select|filter|reject|find|detect|find_each|each_line|times|upto|downto|sum|count|group_by|sort_by|min_by|max_by|partition|filter_map|to_h|index_with|index_by|each_slice|in_batches)$';

/** A request parameter: `params[:x]`, `params.fetch(:x)`, `request.params[...]`. */
const PARAMS = '^(request\\.)?params(\\[|\\.(fetch|dig|require|permit)\\b)';
const fromParams = {
  any: [
    { regex: PARAMS },
    { has: { stopBy: 'end', any: [{ kind: 'element_reference' }, { kind: 'call' }], regex: PARAMS } },
  ],
};

/** A parameter used as is (`params[:x]`, `params.fetch(:x).to_sym`) or interpolated into a string; not a lookup keyed by it. */
const paramValue = {
  any: [
    { regex: '^(request\\.)?params(\\[[^\\]]*\\]|\\.(fetch|dig)\\([^)]*\\))(\\.(to_sym|to_s|camelize|classify))*$' },
    { kind: 'string', has: { kind: 'interpolation', has: { stopBy: 'end', regex: PARAMS } } },
  ],
};

const SECRET_NAME =
  '(?i)(^|[@._])(\\w*_)?(token|password|passwd|secret|nonce|salt|otp|api_key|session_id|csrf_token|reset_code)$';
const SECRET_CLASS = '(?i)(token|password|secret|api_?key|otp|nonce|credential)';
const SECRET_METHOD = '(?i)(^|_)(token|password|passwd|secret|nonce|salt|otp|api_key)(_|$|\\?|!)';

/** A scope with its own local variables: a method, or a block (a Sinatra route, an iteration). */
const SCOPE = {
  any: [{ kind: 'method' }, { kind: 'singleton_method' }, { kind: 'do_block' }, { kind: 'block' }],
};

/** A local variable (`meta`) assigned, in the same method or block, a value matching `value`. */
function assignedFrom(meta: string, value: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'identifier',
    pattern: meta,
    inside: {
      stopBy: 'end',
      ...SCOPE,
      has: {
        stopBy: 'end',
        kind: 'assignment',
        all: [{ has: { field: 'left', pattern: meta } }, { has: { field: 'right', ...value } }],
      },
    },
  };
}

/**
 * An interpolation that cannot carry a quote or a shell metacharacter: a number conversion, a
 * constant, or a value passed through a quoting helper (`quote`, `sanitize_sql`, `Shellwords.escape`).
 */
const SAFE_INTERPOLATION =
  '^#\\{\\s*([^{}]*\\.(to_i|to_f|to_d|shellescape|length|size|count)|(Integer|Float)\\([^{}]*\\)|[A-Z][A-Z0-9_]*|[^{}]*\\b(quote|quote_column_name|quote_table_name|sanitize_sql\\w*|escape|shellescape|table_name|quoted_table_name)\\([^{}]*\\)|[^{}]*\\.map\\(&:to_i\\)\\.join\\([^{}]*\\))\\s*\\}$';
/** A string built with at least one value that may carry a quote or shell metacharacter. */
const unsafeBuiltString = {
  any: [{ kind: 'string', has: { kind: 'interpolation', not: { regex: SAFE_INTERPOLATION } } }, concatenated],
};

/** A value taken from params: `params[:x]`, `params[:x] || "index"`, `params.fetch(:x).to_s`, `"#{params[:x]}.md"`. */
const paramsDerived = {
  any: [
    { regex: PARAMS },
    { has: { stopBy: 'end', any: [{ kind: 'element_reference' }, { kind: 'call' }], regex: PARAMS } },
  ],
  not: { has: { stopBy: 'end', kind: 'call', regex: '^(::)?File\\.basename\\b' } },
};

/** A template engine compiling source from params or from a user-editable record (`@template.body`). */
const compiledUntrustedTemplate = {
  kind: 'call',
  any: [
    {
      all: [
        { has: { field: 'receiver', regex: '^(ERB|Erubi::Engine|Liquid::Template|Haml::Engine|Slim::Template)$' } },
        { has: { field: 'method', regex: '^(new|parse)$' } },
        firstArgument(fromParams),
      ],
    },
    // ERB source kept as data (a record the users edit): `ERB.new(@template.body).result(binding)`.
    {
      all: [
        { has: { field: 'receiver', regex: '^(ERB|Erubi::Engine|Haml::Engine|Slim::Template)$' } },
        { has: { field: 'method', regex: '^new$' } },
        firstArgument({
          kind: 'call',
          all: [
            { has: { field: 'receiver', any: [{ kind: 'identifier' }, { kind: 'instance_variable' }] } },
            { has: { field: 'method', regex: '^(body|content|source|template|text|markup|html|code|snippet)$' } },
            { not: { has: { field: 'arguments', regex: '[\\s\\S]' } } },
          ],
        }),
      ],
    },
  ],
};
/** Rendering a compiled template. */
const TEMPLATE_RENDER = '^(result|result_with_hash|run|render|src)$';

/** A Sinatra route: `get "/path" do ... end`. */
const sinatraRoute = {
  kind: 'call',
  all: [
    { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
    { has: { field: 'method', regex: '^(get|post|put|patch|delete)$' } },
    firstArgument({ kind: 'string', regex: '^["\']/' }),
  ],
};

/** Names of digests that only key or fingerprint data: `cache_key`, `etag`, `checksum`. */
const NON_SECURITY_DIGEST = '(?i)(cache|etag|checksum|fingerprint|shard|bucket|dedup)';

/** Plural methods that are usually plain collections, not associations: `errors`, `values`, `lines`. */
const NOT_ASSOCIATION =
  '^(errors|values|keys|lines|words|chars|bytes|args|arguments|options|params|attributes|changes|headers|parts|elements|entries|segments|fields|columns|rows|cells|pages|items_for|ids|tags_list|names|results|records)$';

export const rubyRules: Rule[] = [
  {
    id: 'rb.sql-injection',
    languages: ['ruby'],
    type: 'security',
    severity: 'critical',
    message:
      'SQL fragment built with string interpolation or concatenation: a value containing a quote changes the query (SQL injection). Use placeholders or hash conditions: where("name = ?", name) or where(name: name).',
    rule: {
      kind: 'call',
      all: [
        {
          has: {
            field: 'method',
            regex:
              '^(where|not|rewhere|having|order|reorder|group|joins|from|pluck|find_by|find_by_sql|count_by_sql|exists\\?|delete_all|update_all|destroy_by|delete_by|execute|exec_query|exec_update|exec_delete|select_all|select_one|select_value|select_values|select_rows|lock)$',
          },
        },
        firstArgument({
          any: [
            unsafeBuiltString,
            // Built in a variable first: `sql = "... IN (#{ids})"; connection.execute(sql)`.
            assignedFrom('$SQL', {
              ...unsafeBuiltString,
              regex: '(?i)\\b(select|insert|update|delete|where|from|order\\s+by|like|in|and|or)\\b|=',
            }),
            // Built in a heredoc held in a variable: `sql = <<~SQL ... #{@month} ... SQL; connection.exec_query(sql)`.
            {
              kind: 'identifier',
              pattern: '$SQL',
              inside: {
                stopBy: 'end',
                ...SCOPE,
                has: {
                  stopBy: 'end',
                  kind: 'assignment',
                  all: [
                    { has: { field: 'left', pattern: '$SQL' } },
                    { has: { field: 'right', kind: 'heredoc_beginning' } },
                    {
                      precedes: {
                        kind: 'heredoc_body',
                        regex: '(?i)\\b(select|insert|update|delete)\\b',
                        has: { kind: 'interpolation', not: { regex: SAFE_INTERPOLATION } },
                      },
                    },
                  ],
                },
              },
            },
          ],
        }),
      ],
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        action('@users = User.where("name = \'#{params[:name]}\'")'),
        'def call\n  sql = "UPDATE docs SET archived = true WHERE id IN (#{@ids.join(", ")})"\n  ActiveRecord::Base.connection.execute(sql)\nend',
        action('conditions = "status = \'#{params[:status]}\'"\n@orders = Order.where(conditions)'),
        action('rows = ActiveRecord::Base.connection.execute("DELETE FROM items WHERE id = " + params[:id])'),
        action('@orders = Order.order("#{params[:sort]} DESC")'),
        "def call\n  sql = <<~SQL\n    SELECT SUM(amount) FROM expenses WHERE month = '#{@month}'\n  SQL\n  ActiveRecord::Base.connection.exec_query(sql).to_a\nend",
      ],
      valid: [
        action('@users = User.where("name = ?", params[:name])'),
        action('@users = User.where(name: params[:name])'),
        action('@orders = Order.order(created_at: :desc)'),
        'def call\n  sql = "UPDATE docs SET archived = true WHERE id IN (#{@ids.map(&:to_i).join(",")})"\n  ActiveRecord::Base.connection.execute(sql)\nend',
        action('conditions = "status = ?"\n@orders = Order.where(conditions, params[:status])'),
        action('@rows = Report.where("created_at > #{Integer(params[:days])}")'),
        'def call\n  sql = <<~SQL\n    SELECT SUM(amount) FROM expenses WHERE account_id = #{@account_id.to_i}\n  SQL\n  ActiveRecord::Base.connection.exec_query(sql).to_a\nend',
      ],
    },
  },
  {
    id: 'rb.sql-injection-dataset',
    languages: ['ruby'],
    type: 'security',
    severity: 'critical',
    message:
      'SQL built by string interpolation and handed to Sequel (DB["..."], .where/.literal strings) or Arel.sql: a value containing a quote changes the query (SQL injection). Use placeholders: DB["... WHERE w = ?", w] or a hash condition.',
    rule: {
      any: [
        {
          kind: 'element_reference',
          has: {
            field: 'object',
            any: [
              { kind: 'instance_variable', regex: '(?i)^@(db|database|sequel|connection|conn)$' },
              { regex: '^(DB|Sequel::Model\\.db)$' },
            ],
          },
          all: [
            {
              has: {
                nthChild: 2,
                kind: 'string',
                has: { kind: 'interpolation' },
                regex: '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from)\\b',
              },
            },
            { not: { has: { nthChild: 3 } } },
          ],
        },
        // A Sequel database handed a built string: `DB.fetch("... '" + term + "'")`, `@db.run("... #{x}")`.
        {
          kind: 'call',
          all: [
            {
              has: {
                field: 'receiver',
                any: [
                  { kind: 'instance_variable', regex: '(?i)^@(db|database|sequel)$' },
                  { regex: '^(DB|Sequel::Model\\.db)$' },
                ],
              },
            },
            { has: { field: 'method', regex: '^(fetch|run|execute|execute_dui|execute_insert)$' } },
            firstArgument({
              ...unsafeBuiltString,
              regex: '(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s.+\\sset|delete\\s+from)\\b',
            }),
          ],
        },
        {
          kind: 'call',
          all: [
            { has: { field: 'receiver', regex: '^Arel$' } },
            { has: { field: 'method', regex: '^sql$' } },
            { has: { field: 'arguments', has: { nthChild: 1, kind: 'string', has: { kind: 'interpolation' } } } },
          ],
        },
      ],
    },
    cwe: 'CWE-89',
    cvss: 9.8,
    examples: {
      invalid: [
        'def low_stock(warehouse)\n  @db["SELECT sku FROM stock WHERE warehouse = \'#{warehouse}\'"].all\nend',
        'scope :sorted, ->(col) { order(Arel.sql("#{col} DESC")) }',
        'rows = DB["DELETE FROM sessions WHERE token = \'#{token}\'"].delete',
        'rows = DB.fetch("SELECT id FROM articles WHERE title ILIKE \'%" + term + "%\'").all',
      ],
      valid: [
        'def low_stock(warehouse)\n  @db["SELECT sku FROM stock WHERE warehouse = ?", warehouse].all\nend',
        'scope :sorted, -> { order(Arel.sql("created_at DESC")) }',
        'label = @labels["#{kind}_title"]',
        'rows = DB.fetch("SELECT id FROM articles WHERE title ILIKE ?", "%#{term}%").all',
        'url = DB.fetch(:url, "#{base}/x")',
      ],
    },
  },
  {
    id: 'rb.ssrf-stored-param',
    languages: ['ruby'],
    type: 'security',
    severity: 'important',
    message:
      'The server fetches a URL that was taken from params (stored in a variable first): a caller can make it reach internal services or cloud metadata (SSRF). Allow-list the hosts before fetching.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'receiver', regex: '^(Net::HTTP|HTTParty|Faraday|RestClient|HTTP|Excon|URI)$' } },
        { has: { field: 'method', regex: '^(get|get_response|post|post_form|head|start|open|put|patch|delete)$' } },
        {
          has: {
            field: 'arguments',
            has: {
              nthChild: 1,
              any: [
                { kind: 'instance_variable', pattern: '$URL' },
                { has: { stopBy: 'end', kind: 'instance_variable', pattern: '$URL' } },
                { kind: 'identifier', pattern: '$URL' },
                { has: { stopBy: 'end', kind: 'identifier', pattern: '$URL' } },
              ],
            },
          },
        },
        {
          inside: {
            stopBy: 'end',
            any: [{ kind: 'class' }, { kind: 'method' }],
            has: {
              stopBy: 'end',
              kind: 'assignment',
              all: [
                { has: { field: 'left', pattern: '$URL' } },
                {
                  has: {
                    field: 'right',
                    any: [
                      {
                        regex:
                          '^((URI|Addressable::URI)(\\.parse)?\\(\\s*)?(request\\.)?params(\\[|\\.(fetch|dig|require|permit)\\b)',
                      },
                      // A record built with its URL from params: `endpoints.new(url: params.require(:url))`.
                      {
                        kind: 'call',
                        has: { field: 'method', regex: '^(new|build|create|create!)$' },
                        all: [
                          {
                            has: {
                              field: 'arguments',
                              has: {
                                kind: 'pair',
                                regex: '^(url|uri|endpoint|callback_url|webhook_url|target_url|feed_url):',
                                has: { field: 'value', regex: PARAMS },
                              },
                            },
                          },
                        ],
                      },
                    ],
                  },
                },
              ],
            },
          },
        },
      ],
    },
    cwe: 'CWE-918',
    examples: {
      invalid: [
        'class TestDelivery\n  def initialize(params)\n    @url = params[:webhook_url]\n  end\n\n  def call\n    Net::HTTP.post(URI(@url), "{}", {})\n  end\nend',
        'def preview\n  target = params[:url]\n  HTTParty.get(target)\nend',
        'def test\n  uri = URI.parse(params[:url])\n  Net::HTTP.post(uri, "{}", "Content-Type" => "application/json")\nend',
        'def create\n  endpoint = current_account.webhook_endpoints.new(url: params.require(:url))\n  HTTParty.post(endpoint.url, body: "{}")\nend',
      ],
      valid: [
        'class TestDelivery\n  def initialize(params)\n    @name = params[:name]\n  end\n\n  def call\n    Net::HTTP.post(URI(@url), "{}", {})\n  end\nend',
        'def preview\n  target = ALLOWED.fetch(params[:url])\n  HTTParty.get(target)\nend',
        'def test\n  uri = URI.parse(WEBHOOKS.fetch(params[:name]))\n  Net::HTTP.post(uri, "{}", "Content-Type" => "application/json")\nend',
        'def create\n  endpoint = current_account.webhook_endpoints.new(name: params.require(:name))\n  HTTParty.post(endpoint.url, body: "{}")\nend',
      ],
    },
  },
  {
    id: 'rb.command-injection',
    languages: ['ruby'],
    type: 'security',
    severity: 'critical',
    message:
      'A shell command built with interpolation or concatenation: shell metacharacters in the value run extra commands (command injection). Pass the program and its arguments separately: system("convert", src, dst).',
    rule: {
      any: [
        { kind: 'subshell', has: { kind: 'interpolation' } },
        {
          kind: 'call',
          all: [
            { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
            { has: { field: 'method', regex: '^(system|exec|spawn)$' } },
            firstArgument({ any: [builtString, assignedFrom('$CMD', unsafeBuiltString)] }),
          ],
        },
        // Kernel#open runs a command when the value starts with "|": `open(params[:source])`.
        {
          kind: 'call',
          all: [
            { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
            { has: { field: 'method', regex: '^open$' } },
            firstArgument({ any: [paramsDerived, assignedFrom('$SRC', paramsDerived)] }),
          ],
        },
        {
          kind: 'call',
          all: [
            { has: { field: 'receiver', regex: '^(Kernel|Open3|IO|PTY|Process)$' } },
            {
              has: {
                field: 'method',
                regex: '^(system|exec|spawn|popen|popen2|popen2e|popen3|capture2|capture2e|capture3|pipeline\\w*)$',
              },
            },
            firstArgument({ any: [builtString, assignedFrom('$CMD', unsafeBuiltString)] }),
          ],
        },
      ],
    },
    cwe: 'CWE-78',
    cvss: 9.8,
    examples: {
      invalid: [
        action('system("tar xzf #{params[:archive]}")'),
        action('output = `ping -c 1 #{host}`'),
        action('out, status = Open3.capture2("convert " + src + " out.png")'),
        action('files = %x(ls #{dir})'),
        'def duration(path)\n  cmd = "ffprobe -v error -of json #{path}"\n  stdout, status = Open3.capture2(cmd)\nend',
        action('source = params[:source]\ndata = open(source).read'),
      ],
      valid: [
        action('system("tar", "xzf", params[:archive])'),
        action('output = `uptime`'),
        action('out, status = Open3.capture2("convert", src, "out.png")'),
        'def duration(path)\n  cmd = "ffprobe -v error -of json #{Shellwords.escape(path)}"\n  stdout, status = Open3.capture2(cmd)\nend',
        action('data = File.open(params[:file].path).read'),
      ],
    },
  },
  {
    id: 'rb.eval',
    languages: ['ruby'],
    type: 'security',
    severity: 'critical',
    message:
      'eval/instance_eval/class_eval of a string built at run time runs whatever code the value holds (code injection). Use a block, public_send with an allow-list, or parse the data.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'method', regex: '^(eval|instance_eval|class_eval|module_eval|instance_exec)$' } },
        {
          any: [
            firstArgument({
              not: {
                any: [
                  { kind: 'string', not: { has: { kind: 'interpolation' } } },
                  { kind: 'block_argument' },
                  { kind: 'heredoc_beginning' },
                ],
              },
            }),
            // A heredoc with a value interpolated as a whole line of code (not just a method name):
            // `class_eval <<~RUBY ... #{expression} ... RUBY`.
            {
              all: [
                firstArgument({ kind: 'heredoc_beginning' }),
                {
                  any: [
                    { precedes: { kind: 'heredoc_body', regex: '(?m)^\\s*#\\{[^}]*\\}\\s*$' } },
                    {
                      inside: {
                        kind: 'assignment',
                        precedes: { kind: 'heredoc_body', regex: '(?m)^\\s*#\\{[^}]*\\}\\s*$' },
                      },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
    cwe: 'CWE-95',
    cvss: 9.8,
    examples: {
      invalid: [
        action('result = eval(params[:expr])'),
        action('obj.instance_eval("self.#{attr} = value")'),
        action('klass.class_eval(code)'),
        'def self.add_metric(name, expression)\n  class_eval <<~RUBY, __FILE__, __LINE__ + 1\n    def #{name}\n      #{expression}\n    end\n  RUBY\nend',
      ],
      valid: [
        action('klass.class_eval do\n  attr_accessor :name\nend'),
        'FIELDS.each do |field|\n  class_eval <<~RUBY, __FILE__, __LINE__ + 1\n    def #{field}_label\n      I18n.t("fields.#{field}")\n    end\n  RUBY\nend',
        action('obj.instance_eval(&block)'),
        action('result = eval("1 + 2")'),
      ],
    },
  },
  {
    id: 'rb.unsafe-deserialization',
    languages: ['ruby'],
    type: 'security',
    severity: 'critical',
    message:
      'Marshal.load and YAML.unsafe_load build arbitrary Ruby objects from the input: untrusted data becomes remote code execution (unsafe deserialization). Use JSON, or YAML.safe_load with permitted classes.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'receiver', regex: '^(::)?(Marshal|YAML|Psych)$' } },
        { has: { field: 'method', regex: '^(load|restore|unsafe_load|unsafe_load_file)$' } },
        {
          not: {
            all: [
              { has: { field: 'receiver', regex: '(YAML|Psych)$' } },
              { has: { field: 'method', regex: '^load$' } },
            ],
          },
        },
      ],
    },
    cwe: 'CWE-502',
    cvss: 9.8,
    examples: {
      invalid: [
        action('session_data = Marshal.load(Base64.decode64(cookies[:data]))'),
        action('doc = YAML.unsafe_load(request.body.read)'),
      ],
      valid: [
        action('session_data = JSON.parse(cookies[:data])'),
        action('doc = YAML.safe_load(request.body.read)'),
        action('blob = Marshal.dump(obj)'),
      ],
    },
  },
  {
    id: 'rb.yaml-load',
    languages: ['ruby'],
    type: 'security',
    severity: 'important',
    message:
      'YAML.load can build arbitrary Ruby objects on Psych < 4 (Ruby < 3.1), which turns untrusted YAML into code execution (unsafe deserialization). Use YAML.safe_load.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'receiver', regex: '^(::)?(YAML|Psych)$' } },
        { has: { field: 'method', regex: '^load$' } },
      ],
      pattern: '$Y.load($DOC)',
    },
    fix: '$Y.safe_load($DOC)',
    cwe: 'CWE-502',
    cvss: 8.1,
    examples: {
      invalid: [action('config = YAML.load(params[:config])'), action('data = Psych.load(body)')],
      valid: [
        action('config = YAML.safe_load(params[:config])'),
        action('config = YAML.safe_load_file("config/app.yml", permitted_classes: [])'),
      ],
    },
  },
  {
    id: 'rb.tls-verify-none',
    languages: ['ruby'],
    type: 'security',
    severity: 'important',
    message:
      'Certificate verification is turned off (VERIFY_NONE / verify: false): anyone on the network path can read and alter the traffic. Keep VERIFY_PEER and add a private CA to the cert store if needed.',
    rule: {
      any: [
        { kind: 'scope_resolution', regex: '^(::)?OpenSSL::SSL::VERIFY_NONE$' },
        { kind: 'pair', regex: '^:?(verify_ssl|ssl_verify|ssl_verify_peer)(:|\\s*=>)\\s*false$' },
        {
          kind: 'pair',
          regex: '^:?verify(:|\\s*=>)\\s*false$',
          inside: { kind: 'hash', inside: { kind: 'pair', regex: '^:?ssl(:|\\s*=>)' } },
        },
      ],
    },
    cwe: 'CWE-295',
    cvss: 7.4,
    examples: {
      invalid: [
        action('http.verify_mode = OpenSSL::SSL::VERIFY_NONE'),
        action('conn = Faraday.new(url: api, ssl: { verify: false })'),
        action('RestClient::Request.execute(method: :get, url: url, verify_ssl: false)'),
      ],
      valid: [
        action('http.verify_mode = OpenSSL::SSL::VERIFY_PEER'),
        action('conn = Faraday.new(url: api, ssl: { verify: true })'),
      ],
    },
  },
  {
    id: 'rb.weak-hash',
    languages: ['ruby'],
    type: 'security',
    severity: 'warning',
    message:
      'MD5 and SHA-1 are broken for security use (collisions are practical). Use Digest::SHA256, or bcrypt/argon2 for passwords.',
    rule: {
      any: [
        { kind: 'scope_resolution', regex: '^(::)?(OpenSSL::)?Digest::(MD5|SHA1)$' },
        { kind: 'call', regex: '^(::)?OpenSSL::Digest\\.new\\(\\s*["\'](?i)(md5|sha1)["\']' },
      ],
      // A digest that only names or buckets data (a cache key, an ETag, a checksum): nothing depends
      // on it being hard to forge.
      not: {
        any: [
          { inside: { stopBy: 'end', kind: 'method', has: { field: 'name', regex: NON_SECURITY_DIGEST } } },
          { inside: { stopBy: 'end', kind: 'assignment', has: { field: 'left', regex: NON_SECURITY_DIGEST } } },
        ],
      },
    },
    cwe: 'CWE-328',
    cvss: 5.3,
    examples: {
      invalid: [
        action('digest = Digest::MD5.hexdigest(password)'),
        action('sig = OpenSSL::Digest::SHA1.new'),
        action('d = OpenSSL::Digest.new("md5")'),
      ],
      valid: [
        action('digest = Digest::SHA256.hexdigest(data)'),
        action('d = OpenSSL::Digest.new("sha256")'),
        'def filter_cache_key(filters)\n  digest = Digest::MD5.hexdigest(filters.to_json)\n  "search/#{digest}"\nend',
        'def show\n  etag = Digest::MD5.hexdigest(@report.body)\nend',
      ],
    },
  },
  {
    id: 'rb.insecure-random',
    languages: ['ruby'],
    type: 'security',
    severity: 'important',
    message:
      'rand, Random and Array#sample are predictable: a token, password or key made with them can be guessed. Use SecureRandom (SecureRandom.hex, SecureRandom.urlsafe_base64, SecureRandom.alphanumeric).',
    rule: {
      kind: 'call',
      any: [
        {
          all: [
            { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
            { has: { field: 'method', regex: '^(rand|srand)$' } },
          ],
        },
        { has: { field: 'receiver', regex: '^(Random|Random\\.new(\\(.*\\))?|Kernel)$' } },
        {
          all: [
            { has: { field: 'method', regex: '^(sample|shuffle)$' } },
            { not: { has: { field: 'arguments', has: { stopBy: 'end', regex: 'SecureRandom' } } } },
          ],
        },
      ],
      inside: {
        stopBy: 'end',
        any: [
          { kind: 'assignment', has: { field: 'left', regex: SECRET_NAME } },
          { kind: 'method', has: { field: 'name', regex: SECRET_METHOD } },
          // The value generator of a credential model: `class ApiToken ... def generate_value`.
          {
            kind: 'method',
            has: { field: 'name', regex: '^(generate|regenerate|assign|set|build|reset)_\\w+$' },
            inside: { stopBy: 'end', kind: 'class', has: { field: 'name', regex: SECRET_CLASS } },
          },
        ],
      },
    },
    cwe: 'CWE-338',
    cvss: 7.5,
    examples: {
      invalid: [
        action('@user.reset_token = Array.new(20) { CHARS.sample }.join'),
        'def generate_token\n  rand(36**20).to_s(36)\nend',
        action('otp = Random.new.rand(100_000..999_999)'),
        'class ApiToken < ApplicationRecord\n  def generate_value\n    self.value = Array.new(40) { CHARS.sample }.join\n  end\nend',
      ],
      valid: [
        action('@user.reset_token = SecureRandom.urlsafe_base64(20)'),
        'def roll_dice\n  rand(1..6)\nend',
        'def generate_token\n  CHARS.sample(20, random: SecureRandom).join\nend',
        'class ApiToken < ApplicationRecord\n  def generate_value\n    self.value = SecureRandom.alphanumeric(40)\n  end\nend',
        'class Survey < ApplicationRecord\n  def generate_order\n    self.order = questions.shuffle\n  end\nend',
      ],
    },
  },
  {
    id: 'rb.dynamic-dispatch',
    languages: ['ruby'],
    type: 'security',
    severity: 'critical',
    message:
      'A method or class chosen by a request parameter (send/public_send/constantize with params): the caller can invoke any method, e.g. destroy or system (unsafe reflection). Map the parameter to an allow-list first.',
    rule: {
      kind: 'call',
      any: [
        {
          all: [
            {
              has: {
                field: 'method',
                regex: '^(send|public_send|__send__|try|method|const_get|instance_variable_get|instance_variable_set)$',
              },
            },
            firstArgument(paramValue),
          ],
        },
        {
          all: [
            { has: { field: 'method', regex: '^(constantize|safe_constantize)$' } },
            { has: { field: 'receiver', ...paramValue } },
          ],
        },
      ],
    },
    cwe: 'CWE-470',
    cvss: 8.8,
    examples: {
      invalid: [
        action('@report.send(params[:format])'),
        action('model = params[:type].classify.constantize'),
        action('Object.const_get(params[:klass]).new'),
      ],
      valid: [
        action('@report.public_send(FORMATS.fetch(params[:format]))'),
        action('@report.public_send(:to_csv)'),
        action('model = "User".constantize'),
      ],
    },
  },
  {
    id: 'rb.path-traversal',
    languages: ['ruby'],
    type: 'security',
    severity: 'important',
    message:
      'A file path built from a request parameter: "../" in the value reads or writes files outside the intended folder (path traversal). Use File.basename on the name, or check the expanded path stays under the base directory.',
    rule: {
      kind: 'call',
      any: [
        {
          all: [
            { has: { field: 'receiver', regex: '^(::)?(File|IO|Pathname|FileUtils)$' } },
            {
              has: {
                field: 'method',
                regex: '^(read|binread|readlines|foreach|open|new|write|binwrite|delete|unlink|rm|rm_f|rm_rf|cp|mv)$',
              },
            },
          ],
        },
        {
          all: [
            { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
            { has: { field: 'method', regex: '^(send_file|send_data_file)$' } },
          ],
        },
      ],
      has: {
        field: 'arguments',
        has: {
          nthChild: 1,
          any: [
            fromParams,
            // Through a local variable: `page = params[:page] || "index"; File.read(File.join(DIR, "#{page}.md"))`.
            assignedFrom('$PATH', paramsDerived),
            { has: { stopBy: 'end', ...assignedFrom('$PATH', paramsDerived) } },
          ],
          not: { has: { stopBy: 'end', kind: 'call', regex: '^(::)?File\\.basename\\b' } },
        },
      },
      // A name checked against an allow-list or the base folder before use.
      not: {
        inside: {
          stopBy: 'end',
          ...SCOPE,
          has: {
            stopBy: 'end',
            kind: 'call',
            has: { field: 'method', regex: '^(include\\?|start_with\\?|basename)$' },
          },
        },
      },
    },
    cwe: 'CWE-22',
    cvss: 7.5,
    examples: {
      invalid: [
        action('send_file Rails.root.join("uploads", params[:file])'),
        action('data = File.read("/var/reports/#{params[:name]}")'),
        action('File.delete(params[:path])'),
        action('page = params[:page] || "index"\ncontent = File.read(File.join(DOCS_DIR, "#{page}.md"))'),
        "get '/docs' do\n  path = File.join(DOCS_DIR, params['page'].to_s)\n  File.read(path)\nend",
      ],
      valid: [
        action(
          'page = params[:page] || "index"\nraise ActionController::RoutingError, page unless PAGES.include?(page)\ncontent = File.read(File.join(DOCS_DIR, "#{page}.md"))',
        ),
        action('page = File.basename(params[:page].to_s)\ncontent = File.read(File.join(DOCS_DIR, page))'),
        action('send_file Rails.root.join("uploads", File.basename(params[:file]))'),
        action('data = File.read(Rails.root.join("config", "app.yml"))'),
      ],
    },
  },
  {
    id: 'rb.swallowed-exception',
    languages: ['ruby'],
    type: 'bug',
    severity: 'warning',
    message:
      'Every StandardError is rescued and ignored (an empty rescue, `rescue nil`, or a rescue that only returns nil or skips to next): failures disappear without a trace. Rescue the specific error you expect, or log it.',
    rule: {
      any: [
        {
          kind: 'rescue',
          all: [
            { not: { has: { kind: 'then' } } },
            { not: { has: { stopBy: 'end', kind: 'comment' } } },
            {
              any: [
                { not: { has: { kind: 'exceptions' } } },
                { has: { kind: 'exceptions', regex: '^(::)?(StandardError|Exception)$' } },
              ],
            },
          ],
        },
        { kind: 'rescue_modifier', regex: '\\brescue\\s+nil$' },
        // A rescue whose whole body is `nil`, `return`, `return nil` or `next`.
        {
          kind: 'rescue',
          all: [
            {
              has: {
                kind: 'then',
                not: {
                  has: {
                    not: {
                      any: [
                        { kind: 'nil' },
                        { kind: 'return', regex: '^return(\\s+nil)?$' },
                        { kind: 'next', regex: '^next$' },
                      ],
                    },
                  },
                },
              },
            },
            { not: { has: { stopBy: 'end', kind: 'comment' } } },
            {
              any: [
                { not: { has: { kind: 'exceptions' } } },
                { has: { kind: 'exceptions', regex: '^(::)?(StandardError|Exception)$' } },
              ],
            },
          ],
        },
      ],
    },
    examples: {
      invalid: [
        'begin\n  charge!(order)\nrescue => e\nend',
        'def sync\n  api.push(record)\nrescue StandardError\nend',
        action('count = Integer(params[:count]) rescue nil'),
        'def deliver\n  begin\n    Mailer.created.deliver_now\n  rescue StandardError\n    nil\n  end\nend',
        'def country_for(ip)\n  Geo.lookup(ip).country\nrescue StandardError => e\n  return nil\nend',
        'items.each do |item|\n  begin\n    sync(item)\n  rescue => e\n    next\n  end\nend',
      ],
      valid: [
        'begin\n  charge!(order)\nrescue => e\n  Rails.logger.error(e)\nend',
        'begin\n  cache.delete(key)\nrescue Errno::ENOENT\nend',
        action('count = Integer(params[:count]) rescue 0'),
        'def deliver\n  begin\n    Mailer.created.deliver_now\n  rescue Net::SMTPError\n    nil\n  end\nend',
        'def deliver\n  begin\n    Mailer.created.deliver_now\n  rescue StandardError\n    false\n  end\nend',
        'def parse(text)\n  Integer(text)\nrescue ArgumentError\n  return nil\nend',
      ],
    },
  },
  {
    id: 'rb.debugger',
    languages: ['ruby'],
    type: 'style',
    severity: 'info',
    message:
      'A debugger breakpoint (binding.pry, byebug, debugger) left in the code stops the process waiting for a terminal. Remove it before merging.',
    rule: {
      any: [
        { kind: 'call', regex: '^binding\\.(pry|irb|remote_pry|break|b)$' },
        {
          kind: 'identifier',
          regex: '^(byebug|debugger)$',
          inside: {
            any: [
              { kind: 'program' },
              { kind: 'body_statement' },
              { kind: 'then' },
              { kind: 'else' },
              { kind: 'block_body' },
              { kind: 'do_block' },
              { kind: 'begin' },
            ],
          },
        },
      ],
    },
    examples: {
      invalid: [action('binding.pry\nrender :show'), 'def update\n  byebug\n  @user.update(user_params)\nend'],
      valid: [action('Rails.logger.debug("state: #{state}")'), 'debugger = Debugger.new(opts)'],
    },
  },
  {
    id: 'rb.debug-output',
    languages: ['ruby'],
    type: 'style',
    severity: 'info',
    message:
      'p/pp/puts in application code is debug output left behind: it bypasses the logger and its levels. Use Rails.logger (or the app logger), or remove it.',
    rule: {
      kind: 'call',
      all: [
        { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
        { has: { field: 'arguments', regex: '[\\s\\S]' } },
      ],
      any: [
        { has: { field: 'method', regex: '^(p|pp)$' } },
        {
          has: { field: 'method', regex: '^(puts|print)$' },
          inside: {
            stopBy: 'end',
            kind: 'class',
            any: [
              {
                has: {
                  field: 'superclass',
                  regex: '(Controller|ApplicationRecord|ActiveRecord::Base|ApplicationJob|ActiveJob::Base|Mailer)$',
                },
              },
              { has: { field: 'name', regex: '(Service|Job|Worker|Controller|Mailer|Policy|Serializer)$' } },
            ],
          },
        },
      ],
    },
    examples: {
      invalid: [
        action('p @user\nrender :show'),
        action('puts "params: #{params.inspect}"'),
        'class PaymentService\n  def charge(order)\n    puts "charging #{order.id}"\n  end\nend',
      ],
      valid: [
        'task :import do\n  puts "imported #{count} rows"\nend',
        action('Rails.logger.info("params: #{params.inspect}")'),
      ],
    },
  },
  {
    id: 'rb.template-injection',
    languages: ['ruby'],
    type: 'security',
    severity: 'critical',
    message:
      'A template compiled from a request parameter: ERB runs the <%= %> code in it on the server (server-side template injection, remote code execution). Render a fixed template and pass the value as data.',
    rule: {
      kind: 'call',
      any: [
        {
          ...compiledUntrustedTemplate,
          // Compiled into a variable and rendered below: the finding goes on the render line.
          not: {
            inside: {
              kind: 'assignment',
              all: [
                { has: { field: 'left', kind: 'identifier', pattern: '$TPL' } },
                {
                  inside: {
                    stopBy: 'end',
                    ...SCOPE,
                    has: {
                      stopBy: 'end',
                      kind: 'call',
                      all: [
                        { has: { field: 'receiver', pattern: '$TPL' } },
                        { has: { field: 'method', regex: TEMPLATE_RENDER } },
                      ],
                    },
                  },
                },
              ],
            },
          },
        },
        // `template = ERB.new(params[:template])` ... `template.result(binding)`.
        {
          all: [
            { has: { field: 'method', regex: TEMPLATE_RENDER } },
            { has: { field: 'receiver', ...assignedFrom('$TPL', compiledUntrustedTemplate) } },
          ],
        },
        {
          all: [
            { has: { field: 'method', regex: '^render$' } },
            {
              has: {
                field: 'arguments',
                has: { kind: 'pair', regex: '^inline:', has: { stopBy: 'end', regex: PARAMS } },
              },
            },
          ],
        },
      ],
    },
    cwe: 'CWE-1336',
    cvss: 9.8,
    examples: {
      invalid: [
        action('html = ERB.new(params[:template]).result(binding)'),
        action('render inline: params[:body]'),
        'def render(user)\n  ERB.new(@template.body).result(binding)\nend',
        action('template = ERB.new(params[:template])\nhtml = template.result(binding)'),
      ],
      valid: [
        action('html = ERB.new(File.read(template_path)).result(binding)'),
        action('render inline: "<p><%= @user.name %></p>"'),
        'def render(user)\n  ERB.new(File.read(@template.path)).result(binding)\nend',
        'def render(user)\n  Liquid::Template.parse(@template.body).render("user" => user)\nend',
        action('template = ERB.new(File.read(path))\nhtml = template.result(binding)'),
      ],
    },
  },
  {
    id: 'rb.html-safe',
    languages: ['ruby'],
    type: 'security',
    severity: 'important',
    message:
      'html_safe/raw marks a string built from data as safe, so Rails does not escape it: markup in the value runs in the page (XSS). Build it with content_tag / tag helpers or format with ERB::Util.h, or sanitize() it.',
    rule: {
      kind: 'call',
      any: [
        { all: [{ has: { field: 'method', regex: '^html_safe$' } }, { has: { field: 'receiver', ...interpolated } }] },
        {
          all: [
            { has: { field: 'method', regex: '^html_safe$' } },
            { has: { field: 'receiver', any: [{ regex: PARAMS }, { has: { stopBy: 'end', regex: PARAMS } }] } },
          ],
        },
        {
          all: [
            { has: { field: 'method', regex: '^html_safe$' } },
            { has: { field: 'receiver', kind: 'identifier', pattern: '$V' } },
            {
              inside: {
                stopBy: 'end',
                kind: 'method',
                has: {
                  stopBy: 'end',
                  kind: 'assignment',
                  all: [
                    { has: { field: 'left', pattern: '$V' } },
                    { has: { field: 'right', has: { stopBy: 'end', regex: PARAMS } } },
                  ],
                },
              },
            },
          ],
        },
        {
          all: [
            { not: { has: { field: 'receiver', regex: '[\\s\\S]' } } },
            { has: { field: 'method', regex: '^raw$' } },
            firstArgument({
              any: [
                interpolated,
                { regex: PARAMS },
                {
                  kind: 'call',
                  all: [
                    { has: { field: 'receiver', any: [{ kind: 'identifier' }, { kind: 'instance_variable' }] } },
                    { not: { has: { field: 'arguments', regex: '[\\s\\S]' } } },
                    { not: { has: { field: 'method', regex: '(?i)(html|safe|sanitized|escaped|rendered|json)' } } },
                  ],
                },
                // A local built from a record's text first: `formatted = comment.body.gsub("\\n", "<br>")`.
                assignedFrom('$RAW', {
                  any: [
                    interpolated,
                    {
                      kind: 'call',
                      regex:
                        '^@?[a-z_]\\w*\\.(body|content|text|description|bio|message|comment|note|title|name|summary)\\b',
                    },
                  ],
                  not: {
                    regex:
                      '\\b(sanitize|h|html_escape|escape_html|strip_tags|simple_format|content_tag|safe_join|to_json)\\b',
                  },
                }),
              ],
            }),
          ],
        },
      ],
    },
    cwe: 'CWE-79',
    cvss: 6.1,
    examples: {
      invalid: [
        'def render_comment(comment)\n  "<p>#{comment.body}</p>".html_safe\nend',
        'def bio_for(user)\n  raw(user.bio)\nend',
        'def render_body(comment)\n  formatted = comment.body.gsub("\\n", "<br>")\n  raw(formatted)\nend',
        action('html = ERB.new(params[:template]).result(binding)\nrender html: html.html_safe'),
      ],
      valid: [
        'def render_comment(comment)\n  content_tag(:p, comment.body, class: "comment")\nend',
        'def bio_for(user)\n  raw(sanitize(user.bio))\nend',
        'def render_body(comment)\n  formatted = sanitize(comment.body.gsub("\\n", "<br>"))\n  raw(formatted)\nend',
        'def icon\n  "<i class=\\"icon\\"></i>".html_safe\nend',
      ],
    },
  },
  {
    id: 'rb.sinatra-html-response',
    languages: ['ruby'],
    type: 'security',
    severity: 'important',
    message:
      'A Sinatra route returns HTML with a request parameter interpolated unescaped: markup in the value runs in the page (XSS). Render an ERB view with escaping, or wrap the value in Rack::Utils.escape_html / ERB::Util.h.',
    rule: {
      kind: 'string',
      regex: '<[a-zA-Z][^>]*>',
      all: [
        {
          has: {
            kind: 'interpolation',
            any: [
              { has: { stopBy: 'end', regex: PARAMS } },
              { has: { kind: 'identifier', ...assignedFrom('$V', fromParams) } },
            ],
            not: {
              regex: '\\b(h|escape_html|html_escape|escape|sanitize)\\(|\\.(to_i|to_f|size|length|count)\\s*\\}$',
            },
          },
        },
        {
          any: [
            // The route's value is the response body.
            { inside: { kind: 'body_statement', inside: { kind: 'do_block', inside: sinatraRoute } } },
            {
              inside: {
                kind: 'argument_list',
                inside: { kind: 'call', has: { field: 'method', regex: '^(halt|body)$' } },
              },
            },
          ],
        },
      ],
    },
    cwe: 'CWE-79',
    cvss: 6.1,
    examples: {
      invalid: [
        'get "/greet" do\n  name = params.fetch("name", "stranger")\n  "<h1>Hello, #{name}!</h1>"\nend',
        'get "/search" do\n  "<p>No results for #{params[:q]}</p>"\nend',
        'post "/items" do\n  halt 400, "<p>Bad item #{params[:name]}</p>"\nend',
      ],
      valid: [
        'get "/greet" do\n  name = params.fetch("name", "stranger")\n  "<h1>Hello, #{Rack::Utils.escape_html(name)}!</h1>"\nend',
        'get "/greet" do\n  @name = params[:name]\n  erb :greet\nend',
        'get "/count" do\n  "<p>#{params[:page].to_i}</p>"\nend',
        'get "/greet" do\n  name = params[:name]\n  "Hello, #{name}"\nend',
      ],
    },
  },
  {
    id: 'rb.ssrf',
    languages: ['ruby'],
    type: 'security',
    severity: 'important',
    message:
      'The server fetches a URL taken from params: a caller can make it reach internal services or cloud metadata (SSRF). Allow-list the hosts before fetching.',
    rule: {
      kind: 'call',
      all: [
        {
          any: [
            {
              all: [
                { has: { field: 'receiver', regex: '^(Net::HTTP|HTTParty|Faraday|RestClient|HTTP|Excon|URI)$' } },
                { has: { field: 'method', regex: '^(get|get_response|post|post_form|head|start|open|new)$' } },
              ],
            },
          ],
        },
        {
          has: {
            field: 'arguments',
            has: { nthChild: 1, any: [{ regex: PARAMS }, { has: { stopBy: 'end', regex: PARAMS } }] },
          },
        },
      ],
    },
    cwe: 'CWE-918',
    cvss: 7.5,
    examples: {
      invalid: [action('image = Net::HTTP.get(URI(params[:avatar_url]))'), action('resp = HTTParty.get(params[:url])')],
      valid: [
        action('image = Net::HTTP.get(URI(AVATAR_BASE))'),
        action('resp = HTTParty.get("https://api.example.com", query: { q: params[:q] })'),
      ],
    },
  },
  {
    id: 'rb.off-by-one-range',
    languages: ['ruby'],
    type: 'bug',
    severity: 'important',
    message:
      'The inclusive range 0..x.length goes one past the last index: x[x.length] is nil and arithmetic on it raises NoMethodError. Use 0...x.length (three dots), each_index, or each_cons(2).',
    rule: {
      kind: 'range',
      all: [
        { regex: '^0\\s*\\.\\.\\s*[^.]' },
        {
          has: {
            nthChild: 2,
            kind: 'call',
            all: [
              { has: { field: 'receiver', pattern: '$X' } },
              { has: { field: 'method', regex: '^(length|size|count)$' } },
            ],
          },
        },
        {
          inside: {
            stopBy: { kind: 'method' },
            kind: 'call',
            has: { stopBy: 'end', kind: 'element_reference', has: { nthChild: 1, pattern: '$X' } },
          },
        },
      ],
    },
    examples: {
      invalid: [
        'def deltas(values)\n  (0..values.length).map { |i| values[i + 1] - values[i] }\nend',
        'def sum(xs)\n  (0..xs.size).each { |i| total += xs[i] }\nend',
      ],
      valid: [
        'def deltas(values)\n  (0...values.length).map { |i| values[i + 1] - values[i] }\nend',
        'def pages(items)\n  (0..items.length).step(10).to_a\nend',
      ],
    },
  },
  {
    id: 'rb.self-comparison',
    languages: ['ruby'],
    type: 'bug',
    severity: 'warning',
    message:
      'A value compared with itself is always true (or always false): one side is probably a typo, e.g. plan_id == other.plan_id.',
    rule: {
      kind: 'binary',
      any: [{ pattern: '$A == $A' }, { pattern: '$A != $A' }],
    },
    constraints: {
      A: {
        any: [
          { kind: 'identifier', not: { regex: '^(rand|gets|readline|srand)$' } },
          { kind: 'instance_variable' },
          { kind: 'call', regex: '^@?[a-z_]\\w*\\.[a-z_]\\w*[?]?$' },
        ],
      },
    },
    examples: {
      invalid: ['def plan_changed?(other)\n  plan_id == plan_id\nend', 'def same?(o)\n  user.id != user.id\nend'],
      valid: ['def plan_changed?(other)\n  plan_id == other.plan_id\nend', 'def same?(o)\n  rand == rand\nend'],
    },
  },
  {
    id: 'rb.query-in-loop',
    languages: ['ruby'],
    type: 'performance',
    severity: 'warning',
    message:
      'A query runs once per element of a loop (N+1 queries). Load the rows in one query before the loop, e.g. Project.where(id: ids).index_by(&:id), Comment.where(post_id: ids).group(:post_id).count, or use includes.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'receiver', kind: 'constant' } },
        {
          any: [
            { has: { field: 'method', regex: '^(find|find_by|find_by!|find_by_id)$' } },
            // A query keyed by the item: `Comment.where(post_id: post.id).count`.
            {
              has: {
                field: 'method',
                regex: '^(where|exists\\?|count|sum|pluck|find_or_create_by!?|find_or_initialize_by)$',
              },
              all: [
                {
                  has: {
                    field: 'arguments',
                    has: {
                      stopBy: 'end',
                      kind: 'identifier',
                      pattern: '$ITEM',
                      inside: {
                        stopBy: { kind: 'method' },
                        any: [{ kind: 'do_block' }, { kind: 'block' }],
                        has: { kind: 'block_parameters', has: { stopBy: 'end', kind: 'identifier', pattern: '$ITEM' } },
                      },
                    },
                  },
                },
              ],
            },
          ],
        },
        {
          inside: {
            stopBy: { kind: 'method' },
            any: [{ kind: 'do_block' }, { kind: 'block' }],
            inside: {
              kind: 'call',
              has: { field: 'method', regex: ITERATION_METHODS },
            },
          },
        },
      ],
    },
    examples: {
      invalid: [
        action('@rows = ids.map do |id|\n  project = Project.find(id)\n  project.name\nend'),
        action('users.each { |u| Account.find_by(user_id: u.id).touch }'),
        action(
          '@posts.each do |post|\n  @counts[post.id] = Comment.where(post_id: post.id, approved: true).count\nend',
        ),
      ],
      valid: [
        action('projects = Project.where(id: ids).index_by(&:id)'),
        action('project = Project.find(params[:id])'),
        action(
          'counts = Comment.where(post_id: @posts.map(&:id)).group(:post_id).count\n@posts.each { |post| @counts[post.id] = counts[post.id] }',
        ),
        action('@posts.each do |post|\n  post.update!(flag: Setting.where(key: "flag").exists?)\nend'),
      ],
    },
  },
  {
    id: 'rb.association-query-in-loop',
    languages: ['ruby'],
    type: 'performance',
    severity: 'warning',
    message:
      'An aggregate over an association of each element (post.comments.count) runs one SQL query per element (N+1 queries), even when the association is preloaded. Count in one grouped query before the loop (Comment.where(post_id: ids).group(:post_id).count), use a counter cache, or .size on a preloaded association.',
    rule: {
      kind: 'call',
      all: [
        {
          any: [
            { has: { field: 'method', regex: '^count$' }, not: { has: { field: 'arguments', regex: '[\\s\\S]' } } },
            { has: { field: 'method', regex: '^exists\\?$' } },
            {
              has: { field: 'method', regex: '^(pluck|sum|average|maximum|minimum)$' },
              all: [firstArgument({ kind: 'simple_symbol' })],
            },
          ],
        },
        { not: { has: { field: 'block', regex: '[\\s\\S]' } } },
        { not: { has: { any: [{ kind: 'block' }, { kind: 'do_block' }, { kind: 'block_argument' }] } } },
        {
          has: {
            field: 'receiver',
            kind: 'call',
            all: [
              { has: { field: 'method', regex: '^[a-z_]+s$', not: { regex: NOT_ASSOCIATION } } },
              { not: { has: { field: 'arguments', regex: '[\\s\\S]' } } },
              {
                has: {
                  field: 'receiver',
                  kind: 'identifier',
                  pattern: '$ITEM',
                  inside: {
                    stopBy: { kind: 'method' },
                    any: [{ kind: 'do_block' }, { kind: 'block' }],
                    all: [
                      { has: { kind: 'block_parameters', has: { kind: 'identifier', pattern: '$ITEM' } } },
                      { inside: { kind: 'call', has: { field: 'method', regex: ITERATION_METHODS } } },
                    ],
                  },
                },
              },
            ],
          },
        },
      ],
    },
    examples: {
      invalid: [
        'def as_json(*)\n  @posts.map do |post|\n    { id: post.id, comments: post.comments.count }\n  end\nend',
        'def totals\n  orders.each { |order| puts order.line_items.sum(:amount_cents) }\nend',
      ],
      valid: [
        'def as_json(*)\n  @posts.map do |post|\n    { id: post.id, comments: post.comments.size }\n  end\nend',
        'def report\n  rows.each { |row| puts row.values.count }\nend',
        'def open_count(post)\n  post.comments.count\nend',
        'def totals\n  orders.each { |order| puts order.line_items.count(&:gift?) }\nend',
      ],
    },
  },
  {
    id: 'rb.string-concat-in-loop',
    languages: ['ruby'],
    type: 'performance',
    severity: 'warning',
    message:
      'str += in a loop allocates a new string and copies the old one on every iteration (quadratic). Append with << to a mutable string, or collect the parts and join them.',
    rule: {
      kind: 'operator_assignment',
      all: [
        { regex: '^\\S+\\s*\\+=' },
        { has: { field: 'right', any: [{ kind: 'string' }, { has: { stopBy: 'end', kind: 'string' } }] } },
        {
          inside: {
            stopBy: { kind: 'method' },
            any: [{ kind: 'do_block' }, { kind: 'block' }, { kind: 'while' }, { kind: 'until' }, { kind: 'for' }],
          },
        },
      ],
    },
    examples: {
      invalid: [
        'def build(lines)\n  out = ""\n  lines.each { |line| out += "#{line}\\n" }\n  out\nend',
        'def build(rows)\n  rows.each do |r|\n    csv += r.join(",") + "\\n"\n  end\nend',
      ],
      valid: [
        'def build(lines)\n  out = +""\n  lines.each { |line| out << "#{line}\\n" }\n  out\nend',
        'def total(items)\n  items.each { |i| sum += i.price }\nend',
      ],
    },
  },
  {
    id: 'rb.assignment-in-condition',
    languages: ['ruby'],
    type: 'bug',
    severity: 'important',
    message:
      'This condition assigns a literal instead of comparing it, so it is always true and overwrites the variable: use `==`.',
    rule: {
      kind: 'assignment',
      has: {
        field: 'right',
        any: [
          { kind: 'string', not: { has: { kind: 'interpolation' } } },
          { kind: 'integer' },
          { kind: 'simple_symbol' },
          { kind: 'true' },
          { kind: 'false' },
        ],
      },
      any: [
        {
          inside: {
            any: [{ kind: 'if' }, { kind: 'unless' }, { kind: 'elsif' }, { kind: 'while' }, { kind: 'until' }],
            field: 'condition',
          },
        },
        { inside: { any: [{ kind: 'if_modifier' }, { kind: 'unless_modifier' }], field: 'condition' } },
      ],
    },
    examples: {
      invalid: ['if status = "active"\n  renew\nend', 'return false unless role = :admin'],
      valid: ['if status == "active"\n  renew\nend', 'if (user = User.find_by(id: id))\n  greet(user)\nend'],
    },
  },
  {
    id: 'rb.commented-out-code',
    languages: ['ruby'],
    type: 'style',
    severity: 'info',
    message:
      'Commented-out code: version control keeps the old code, and a dead line in the file only misleads readers. Delete it.',
    rule: {
      kind: 'comment',
      regex:
        '^#\\s*([A-Z]\\w*(::\\w+)*|@?[a-z_]\\w*)(\\.\\w+[?!]?)*\\(.*\\)(\\.\\w+[?!]?(\\(.*\\))?)*\\s*$|^#\\s*@?[a-z_]\\w*\\s*=\\s*[\\w@:"\'\\[{(].*\\(.*\\)\\s*$' +
        // A Rails/Ruby macro with code arguments: `# before_action :require_admin!`, `# has_many :posts, dependent: :destroy`.
        '|^#\\s*(before_action|after_action|around_action|skip_before_action|prepend_before_action|protect_from_forgery|validates?|validates_\\w+|has_many|has_one|belongs_to|has_and_belongs_to_many|scope|attr_(accessor|reader|writer)|delegate|helper_method|include|extend|require|require_relative|(before|after|around)_(save|create|update|destroy|validation|commit)|authorize|redirect_to|render|raise)\\s+(:[a-z_]\\w*[!?]?|"[^"]*"|\'[^\']*\'|@\\w+|[A-Z]\\w*(::\\w+)*)(\\s*,.*)?\\s*$',
      not: { regex: '(?i)^#\\s*(rubocop|frozen_string_literal|typed|todo|fixme|note|see|example|@\\w+\\s)' },
    },
    examples: {
      invalid: [
        'def send_welcome\n  # UserMailer.welcome(self).deliver_later\nend',
        'x = 1\n# total = items.sum(&:price)',
        'class ReportsController < ApplicationController\n  # before_action :require_admin!\nend',
        'class Post < ApplicationRecord\n  # has_many :comments, dependent: :destroy\nend',
      ],
      valid: [
        '# Sends the welcome mail (see UserMailer).\ndef send_welcome; end',
        '# frozen_string_literal: true\nx = 1',
        '# @param user (User) the user',
        '# Render the page only for admins.\nx = 1',
        '# include the footer when the user is signed in\nx = 1',
      ],
    },
  },
  {
    id: 'rb.unreachable-code',
    languages: ['ruby'],
    type: 'bug',
    severity: 'warning',
    message:
      'This statement comes right after an unconditional return, break, next or raise in the same block, so it never runs: remove it or move it before the jump.',
    rule: {
      any: [
        'call',
        'assignment',
        'operator_assignment',
        'if',
        'unless',
        'while',
        'until',
        'case',
        'return',
        'yield',
        'identifier',
      ].map((kind) => ({ kind })),
      follows: {
        any: [
          { kind: 'return' },
          { kind: 'break' },
          { kind: 'next' },
          // `raise Error, "..."` / `raise` (a re-raise): nothing after it in the block runs.
          {
            kind: 'call',
            not: { has: { field: 'receiver', regex: '[\\s\\S]' } },
            has: { field: 'method', regex: '^(raise|fail)$' },
          },
          { kind: 'identifier', regex: '^raise$' },
        ],
      },
      inside: { any: [{ kind: 'body_statement' }, { kind: 'then' }, { kind: 'else' }, { kind: 'block_body' }] },
    },
    examples: {
      invalid: [
        'def allowed?(order)\n  return false if order.old?\n\n  return true\n  Rails.logger.info("refund allowed for #{order.id}")\nend',
        'items.each do |item|\n  next\n  process(item)\nend',
        'def pay(account, amount)\n  if account.balance < amount\n    raise InsufficientBalance, "too low"\n    Rails.logger.warn("rejected")\n  end\nend',
      ],
      valid: [
        'def allowed?(order)\n  return false if order.old?\n  Rails.logger.info("refund allowed")\n  true\nend',
        'def load\n  return cached\nrescue KeyError\n  nil\nend',
        'def pay(account, amount)\n  raise InsufficientBalance, "too low" if account.balance < amount\n  Rails.logger.info("paid")\nend',
      ],
    },
  },
  {
    id: 'rb.oj-object-mode',
    languages: ['ruby'],
    type: 'security',
    severity: 'critical',
    message:
      'Oj in :object mode (or Oj.object_load) instantiates whatever classes the JSON names, which lets a request body build arbitrary objects (unsafe deserialization): use Oj.load with mode: :strict or JSON.parse.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'receiver', regex: '^Oj$' } },
        {
          any: [
            { has: { field: 'method', regex: '^object_load$' } },
            {
              all: [
                { has: { field: 'method', regex: '^(load|load_file)$' } },
                { has: { field: 'arguments', has: { kind: 'pair', regex: '^(mode:\\s*|:mode\\s*=>\\s*):object$' } } },
              ],
            },
          ],
        },
      ],
    },
    cwe: 'CWE-502',
    cvss: 9.8,
    examples: {
      invalid: [
        action('payload = Oj.load(request.raw_post, mode: :object)'),
        action('payload = Oj.object_load(params[:data])'),
      ],
      valid: [
        action('payload = Oj.load(request.raw_post, mode: :strict)'),
        action('payload = JSON.parse(request.raw_post)'),
      ],
    },
  },
  {
    id: 'rb.inline-template-injection',
    languages: ['ruby'],
    type: 'security',
    severity: 'critical',
    message:
      'Sinatra renders a String argument of erb/haml/slim as the template source, so a request value interpolated into it runs as template code (server-side template injection): render a template file and pass the value as a local.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'method', regex: '^(erb|haml|slim|liquid)$' } },
        { not: { has: { field: 'receiver', regex: '.' } } },
        firstArgument({ kind: 'string', has: { kind: 'interpolation', has: { stopBy: 'end', regex: PARAMS } } }),
      ],
    },
    cwe: 'CWE-1336',
    examples: {
      invalid: [
        'get \'/hello\' do\n  erb "<h1>Hello #{params[:name]}</h1>"\nend',
        "get '/x' do\n  haml \"%p= #{params['msg']}\"\nend",
      ],
      valid: [
        "get '/hello' do\n  erb :hello, locals: { name: params[:name] }\nend",
        'get \'/hello\' do\n  erb "<h1>Hello <%= name %></h1>", locals: { name: params[:name] }\nend',
      ],
    },
  },
  {
    id: 'rb.regexp-new-in-loop',
    languages: ['ruby'],
    type: 'performance',
    severity: 'warning',
    message:
      'Regexp.new with a constant pattern inside a loop or an iteration block compiles the same regular expression on every item: build it once (a constant, or a /literal/) before the loop.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'receiver', regex: '^Regexp$' } },
        { has: { field: 'method', regex: '^(new|compile)$' } },
        firstArgument({ kind: 'string', not: { has: { kind: 'interpolation' } } }),
        {
          inside: {
            stopBy: 'end',
            any: [
              { kind: 'do_block', inside: { kind: 'call', has: { field: 'method', regex: ITERATION_METHODS } } },
              { kind: 'block', inside: { kind: 'call', has: { field: 'method', regex: ITERATION_METHODS } } },
              { kind: 'while' },
              { kind: 'until' },
              { kind: 'for' },
            ],
          },
        },
      ],
    },
    examples: {
      invalid: [
        "lines.select do |line|\n  pattern = Regexp.new('completed in (\\d{4,}) ms')\n  pattern.match?(line)\nend",
        "rows.each { |row| out << row if Regexp.new('^x').match?(row) }",
      ],
      valid: [
        "PATTERN = Regexp.new('completed in (\\d{4,}) ms')\nlines.select { |line| PATTERN.match?(line) }",
        'terms.each do |term|\n  re = Regexp.new(Regexp.escape(term))\n  hits << re if re.match?(text)\nend',
      ],
    },
  },
  {
    id: 'rb.loop-invariant-parse',
    languages: ['ruby'],
    type: 'performance',
    severity: 'warning',
    message:
      'JSON.parse / YAML.safe_load / Regexp.new inside an iteration block on a value that does not change between items: the same document is parsed (or the same pattern compiled) once per item. Do it once before the loop.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'receiver', regex: '^(::)?(JSON|YAML|Psych|Regexp|Oj)$' } },
        { has: { field: 'method', regex: '^(parse|safe_load|load|new|compile|union)$' } },
        // A literal pattern is rb.regexp-new-in-loop.
        firstArgument({ not: { kind: 'string', not: { has: { kind: 'interpolation' } } } }),
        {
          inside: {
            stopBy: { any: [{ kind: 'method' }, { kind: 'singleton_method' }] },
            any: [{ kind: 'do_block' }, { kind: 'block' }],
            inside: { kind: 'call', has: { field: 'method', regex: ITERATION_METHODS } },
          },
        },
        // No name in the argument is a block parameter or set inside the block...
        {
          not: {
            has: {
              field: 'arguments',
              has: {
                stopBy: 'end',
                any: [{ kind: 'identifier' }, { kind: 'instance_variable' }],
                pattern: '$V',
                inside: {
                  stopBy: { any: [{ kind: 'method' }, { kind: 'singleton_method' }] },
                  any: [{ kind: 'do_block' }, { kind: 'block' }],
                  has: {
                    stopBy: 'end',
                    any: [
                      { kind: 'block_parameters', has: { stopBy: 'end', kind: 'identifier', pattern: '$V' } },
                      { kind: 'assignment', has: { field: 'left', pattern: '$V' } },
                      { kind: 'operator_assignment', has: { field: 'left', pattern: '$V' } },
                    ],
                  },
                },
              },
            },
          },
        },
        // ...and every other bare name is a method name or a parameter of the method (not a call that may change).
        {
          not: {
            has: {
              field: 'arguments',
              has: {
                stopBy: 'end',
                kind: 'identifier',
                pattern: '$W',
                all: [
                  { not: { inside: { kind: 'call', has: { field: 'method', pattern: '$W' } } } },
                  { not: insideMethodWithParameter('$W') },
                ],
              },
            },
          },
        },
        // Not reading a stream or response that moves on: `JSON.parse(io.gets)`, `JSON.parse(http.get(...).body)`.
        {
          not: {
            has: {
              field: 'arguments',
              has: {
                stopBy: 'end',
                kind: 'call',
                has: {
                  field: 'method',
                  regex: '^(gets|read|readline|get|post|request|call|next|shift|pop|fetch_next)$',
                },
              },
            },
          },
        },
      ],
    },
    examples: {
      invalid: [
        'def route(notifications)\n  notifications.map do |n|\n    rules = JSON.parse(@setting.routing_rules)\n    [n, rules.fetch(n.kind)]\n  end\nend',
        'def self.count(lines, service)\n  lines.count do |line|\n    Regexp.new("\\\\A\\\\[#{Regexp.escape(service)}\\\\] ERROR").match?(line)\n  end\nend',
      ],
      valid: [
        'def route(notifications)\n  rules = JSON.parse(@setting.routing_rules)\n  notifications.map { |n| [n, rules.fetch(n.kind)] }\nend',
        'def load(rows)\n  rows.map { |row| JSON.parse(row.payload) }\nend',
        'def load(rows)\n  rows.each do |row|\n    raw = row.payload\n    docs << JSON.parse(raw)\n  end\nend',
        'def poll(ids)\n  ids.each { |_| JSON.parse(next_message) }\nend',
        'def poll(pages)\n  pages.each do |page|\n    @body = client.get(page).body\n    docs << JSON.parse(@body)\n  end\nend',
      ],
    },
  },
  {
    id: 'rb.open-uri-argument',
    languages: ['ruby'],
    type: 'security',
    severity: 'important',
    message:
      'URI.open fetches whatever URL the caller passes in (any host, internal services, cloud metadata): server-side request forgery when the URL comes from a user. Check the host against an allow-list (and the scheme is https) before fetching.',
    rule: {
      kind: 'call',
      all: [
        { has: { field: 'receiver', regex: '^(::)?URI$' } },
        { has: { field: 'method', regex: '^open$' } },
        firstArgument({
          kind: 'identifier',
          pattern: '$URL',
          ...insideMethodWithParameter('$URL'),
        }),
        // No host check in the method.
        {
          not: {
            inside: {
              stopBy: 'end',
              any: [{ kind: 'method' }, { kind: 'singleton_method' }],
              has: {
                stopBy: 'end',
                kind: 'call',
                has: { field: 'method', regex: '^(host|allowed\\w*\\??|include\\?)$' },
              },
            },
          },
        },
      ],
    },
    cwe: 'CWE-918',
    examples: {
      invalid: [
        'def attach_remote_avatar(url)\n  avatar.attach(io: URI.open(url), filename: "avatar.png")\nend',
        'def import_feed(feed_url)\n  body = URI.open(feed_url).read\nend',
      ],
      valid: [
        'def attach_default\n  avatar.attach(io: URI.open(DEFAULT_AVATAR_URL), filename: "avatar.png")\nend',
        'def import_feed(feed_url)\n  raise ArgumentError unless ALLOWED_HOSTS.include?(URI(feed_url).host)\n  body = URI.open(feed_url).read\nend',
      ],
    },
  },
];
