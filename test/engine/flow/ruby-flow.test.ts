import { describe, expect, it } from 'vitest';
import { flowsOf, fullFlowsOf } from './flows-of.js';

/** A Rails controller action around a body; the body starts on line 3. */
const action = (body: string, extra = '') =>
  flowsOf(
    'ruby',
    `class ItemsController < ApplicationController
  def create
${body}
  end
${extra}
end
`,
  );

describe('Ruby taint flows', () => {
  it('reports a parameter interpolated into a where clause, on the sink line, naming the source line', () => {
    const source = `class UsersController < ApplicationController
  def index
    name = params[:name]
    @users = User.where("name = '#{name}'")
  end
end
`;
    expect(fullFlowsOf('ruby', source)).toEqual([
      {
        sinkLine: 4,
        sourceLine: 3,
        sourceDescription: 'a request parameter',
        cwe: 89,
        sinkKind: 'SQL query',
        variable: 'name',
      },
    ]);
  });

  it('does not report bound parameters, hash conditions or a constant query', () => {
    expect(
      action(`    name = params[:name]
    User.where("name = ?", name)
    User.where(name: name)
    User.find_by_sql(["select * from users where name = ?", name])
    User.where("active = true")`),
    ).toEqual([]);
  });

  it('follows assignment, multiple assignment, +, <<, format, % and join', () => {
    expect(
      action(`    p = params[:p]
    a, b = "ls", p
    system("ls " + b)
    s = "cat "
    s << p
    system(s)
    system(format("grep %s", p))
    system("rm %s" % p)
    system(["echo", p].join(" "))
    system("ls " + a)`),
    ).toEqual(['78@5<-3', '78@8<-3', '78@9<-3', '78@10<-3', '78@11<-3']);
  });

  it('takes the words of system and spawn one by one: the program, or all of them for a shell given a command', () => {
    expect(
      action(`    f = params[:file]
    system("convert", f, "out.png")
    system("sh", "-c", "convert " + f)
    Process.spawn("/bin/bash", "-c", "tar czf #{f}.tgz #{f}")
    system(f, "--version")`),
    ).toEqual(['78@5<-3', '78@6<-3', '78@7<-3']);
  });

  it('follows string interpolation, backticks, %x and a heredoc', () => {
    expect(
      action(`    q = params[:q]
    \`grep #{q} log\`
    %x(wc #{q})
    sql = <<~SQL
      select * from t where a = '#{q}'
    SQL
    ActiveRecord::Base.connection.execute(sql)
    \`uptime\``),
    ).toEqual(['78@4<-3', '78@5<-3', '89@9<-3']);
  });

  it('reads arrays and hashes element by element: <<, push, [], fetch, dig', () => {
    expect(
      action(`    p = params[:p]
    list = ["safe"]
    list << p
    list.push("fixed")
    system(list[0])
    system(list[1])
    system(list[2])
    h = { cmd: p, other: "ok" }
    system(h[:other])
    system(h.fetch(:cmd))
    system(h.dig(:cmd))`),
    ).toEqual(['78@8<-3', '78@12<-3', '78@13<-3']);
  });

  it('decides a constant ternary and if, and merges branches it cannot decide', () => {
    expect(
      action(`    p = params[:p]
    x = 1 > 2 ? p : "safe"
    eval(x)
    y = if 3 == 3 then "safe" else p end
    eval(y)
    z = p if request.post?
    eval(z)
    w = "safe"
    w = p unless request.get?
    eval(w)`),
    ).toEqual(['95@9<-3', '95@12<-3']);
  });

  it('follows methods called on a tainted string, split(...)[0] and gsub', () => {
    expect(
      action(`    p = params[:p]
    system(p.strip.downcase)
    system(p.split(",")[0])
    system(p.gsub("a", "b"))
    system(p.length.to_s)`),
    ).toEqual(['78@4<-3', '78@5<-3', '78@6<-3']);
  });

  it('runs blocks where they are written, and takes map values from the block', () => {
    expect(
      action(`    params[:files].each do |f|
      File.read(f)
    end
    ids = params[:ids].map { |i| i.to_i }
    User.where("id in (#{ids.join(",")})")
    names = params[:names].map(&:strip)
    User.where("name in (#{names.join(",")})")
    nums = params[:ids].map(&:to_i)
    User.where("id in (#{nums.join(",")})")`),
    ).toEqual(['22@4<-3', '89@9<-8']);
  });

  it('ends taint at to_i, Integer(), and at escapes for their own CWE only', () => {
    expect(
      action(`    p = params[:p]
    system("kill #{p.to_i}")
    system("kill #{Integer(p)}")
    e = ERB::Util.html_escape(p)
    raw(e)
    User.where("name = '#{e}'")
    system("ls #{Shellwords.escape(p)}")
    File.read(File.basename(p))
    raw(CGI.escapeHTML(p))
    raw(h(p))
    raw(sanitize(p))
    File.read(p)`),
    ).toEqual(['89@8<-3', '22@14<-3']);
  });

  it('clears a path only after expand_path and a start_with? check of the result', () => {
    expect(
      action(`    base = "/srv/files"
    path = File.expand_path(params[:name], base)
    File.read(path)
    raise "outside" unless path.start_with?(base)
    File.read(path)
    raw = params[:name]
    halt 403 unless raw.start_with?(base)
    File.read(raw)`),
    ).toEqual(['22@5<-4', '22@10<-8']);
  });

  it('clears a value checked against an allow-list, but not against a list the user sent', () => {
    expect(
      action(`    col = params[:sort]
    User.order(col)
    if %w[name created_at].include?(col)
      User.order(col)
    end
    if params[:allowed].include?(col)
      User.order(col)
    end
    return head(:bad_request) if col.include?("'")
    User.where("x = '#{col}'")`),
    ).toEqual(['89@4<-3', '89@9<-3']);
  });

  it('follows a same-file helper called bare or on self, and its implicit return value', () => {
    expect(
      action(
        `    User.where("q = '#{query}'")
    system(self.wrap(params[:p]))
    system(wrap("constant"))
    system(number)`,
        `  private

  def query
    @query ||= params[:q].strip
  end

  def wrap(value)
    "echo #{value}"
  end

  def number
    params[:n].to_i
  end`,
      ),
    ).toEqual(['89@3<-11', '78@4<-4']);
  });

  it('reads a local variable named like a method as the variable', () => {
    expect(
      action(
        `    query = "fixed"
    User.where("q = '#{query}'")`,
        `  def query
    params[:q]
  end`,
      ),
    ).toEqual([]);
  });

  it('does not report a constant or a literal reaching a sink', () => {
    expect(
      action(`    cmd = "ls -l"
    system(cmd)
    eval("1 + 1")
    File.read("config/app.yml")
    redirect_to "/home"`),
    ).toEqual([]);
  });

  it('reports Sinatra route bodies and URL parameters as HTML, but not templates rendered by name', () => {
    const source = `require "sinatra"

get "/hello/:name" do |name|
  "<h1>Hello #{name}</h1>"
end

get "/search" do
  erb :results, locals: { q: params[:q] }
end

get "/echo" do
  content_type :json
  { q: params[:q] }.to_json
end

post "/render" do
  erb "<p>#{params[:body]}</p>"
end
`;
    expect(flowsOf('ruby', source)).toEqual(['79@4<-3', '1336@17<-17']);
  });

  it('reports commands, eval, send, constantize, deserialisation, redirects and requests with their CWE', () => {
    expect(
      action(`    v = params[:v]
    Open3.capture2("convert #{v}")
    IO.popen(["ls", v])
    IO.popen([v, "-l"])
    instance_eval(v)
    User.send(v)
    User.send(:find, v)
    v.constantize
    Marshal.load(request.body.read)
    redirect_to params[:return_to]
    redirect_to "https://example.com/#{v}"
    Net::HTTP.get(URI(v))
    Net::HTTP.get(URI("https://api.example.com/items/#{v}"))
    HTTParty.get(v)
    ERB.new(v).result(binding)`),
    ).toEqual([
      '78@4<-3',
      '78@6<-3',
      '95@7<-3',
      '94@8<-3',
      '94@10<-3',
      '502@11<-11',
      '601@12<-12',
      '918@14<-3',
      '918@16<-3',
      '1336@17<-3',
    ]);
  });

  it('does not treat a saved record as the input it was built from', () => {
    expect(
      action(`    @item = Item.new(item_params)
    redirect_to @item if @item.save
    record = Item.create!(item_params)
    redirect_to record
    render params[:page]`),
    ).toEqual(['22@7<-7']);
  });

  it('reads request headers, cookies and the URL, but not signed cookies', () => {
    expect(
      action(`    system(request.headers["X-Cmd"])
    system(cookies[:cmd])
    system(cookies.signed[:cmd])
    system(request.path)
    system(request.user_agent)`),
    ).toEqual(['78@3<-3', '78@4<-4', '78@6<-6', '78@7<-7']);
  });

  it("reports Sinatra's not_found and error blocks returning markup built from the request, not fixed pages", () => {
    expect(
      flowsOf(
        'ruby',
        `class ErrorsApp < Sinatra::Base
  not_found do
    path = request.path_info
    "<h1>Not found</h1><p>#{path} does not exist.</p>"
  end

  error 403 do
    "<p>Forbidden</p>"
  end
end
`,
      ),
    ).toEqual(['79@4<-3']);
  });
});
