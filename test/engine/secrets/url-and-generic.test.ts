import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../src/engine/secrets/find-secrets.js';
import { added, BASE62, fakes } from './fake-secrets.js';

const f = fakes(23);
/** Keeps `${…}` placeholders out of plain string literals (the linter reads them as mistakes). */
const DOLLAR = '$';

function scan(line: string, path = 'src/settings.py') {
  return findSecrets({ path, addedLines: added([line]) });
}

describe('passwords in URLs', () => {
  it.each([
    [
      'postgres',
      (p: string) => `DATABASE_URL = "postgres://app:${p}@db.internal.acme.io:5432/app"`,
      'db.internal.acme.io',
    ],
    ['redis', (p: string) => `redis.from_url('rediss://default:${p}@cache.acme.io:6380/0')`, 'cache.acme.io'],
    ['https', (p: string) => `git clone https://deploy:${p}@git.acme.io/team/repo.git`, 'git.acme.io'],
    ['amqp', (p: string) => `broker: amqp://worker:${p}@[2001:db8::1]:5672/`, '[2001:db8::1]'],
  ])('reports the password of a %s URL', (_scheme, line, host) => {
    const password = f.password();
    const findings = scan(line(password));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ ruleId: 'secrets.url-credentials', severity: 'critical', cwe: 'CWE-798' });
    expect(findings[0]?.message).toContain(host);
    expect(JSON.stringify(findings)).not.toContain(password);
  });

  it('keeps the user and host and at most four characters of the password', () => {
    const password = f.password();
    const [finding] = scan(`url = "mysql://shop:${password}@mysql.acme.io/shop"`);
    expect(finding?.codeSnippet).toBe(`url = "mysql://shop:${password.slice(0, 4)}…@mysql.acme.io/shop"`);
  });

  it('reports a token used as the password through its own rule, once', () => {
    const token = f.github('p');
    const findings = scan(`remote = "https://x-access-token:${token}@github.com/acme/app.git"`);
    expect(findings.map((x) => x.ruleId)).toEqual(['secrets.github-token']);
  });

  it.each([
    ['an environment interpolation', `postgres://app:${DOLLAR}{DB_PASSWORD}@db.acme.io/app`],
    ['a template placeholder', 'postgres://app:{{ password }}@db.acme.io/app'],
    ['an angle-bracket placeholder', 'postgres://app:<password>@db.acme.io/app'],
    ['a shell variable', 'postgres://app:$PGPASSWORD@db.acme.io/app'],
    ['the word password', 'postgres://user:password@db.acme.io/app'],
    ['user:pass', 'ftp://user:pass@files.acme.io/'],
    ['a password equal to the user', 'postgres://redline:redline@db.acme.io/redline'],
    ['changeme', 'postgres://app:changeme@db.acme.io/app'],
    ['localhost', `postgres://app:${'Zq8'}vLr2pWm4@localhost:5432/app`],
    ['a loopback address', `postgres://app:${'Zq8'}vLr2pWm4@127.0.0.1:5432/app`],
    ['a reserved example domain', `https://app:${'Zq8'}vLr2pWm4@api.example.com/`],
    ['a URL with a user and no password', 'ssh://git@github.com/acme/app.git'],
    ['an e-mail address after a URL', 'see https://acme.io/docs and write to ops@acme.io'],
  ])('ignores %s', (_label, url) => {
    expect(scan(`url = "${url}"`)).toEqual([]);
  });
});

describe('hard-coded credentials assigned to credential names', () => {
  const value = () => f.pick(BASE62, 32);
  it.each([
    ['JavaScript', 'src/client.js', (v: string) => `const apiKey = '${v}';`, 'apiKey'],
    ['TypeScript with a type', 'src/client.ts', (v: string) => `const clientSecret: string = "${v}";`, 'clientSecret'],
    ['Python', 'app/settings.py', (v: string) => `SECRET_KEY = "${v}"`, 'SECRET_KEY'],
    ['Python dict', 'app/settings.py', (v: string) => `DATABASES = {"default": {"PASSWORD": "${v}"}}`, 'PASSWORD'],
    ['Go', 'cmd/main.go', (v: string) => `	authToken := "${v}"`, 'authToken'],
    ['Java', 'src/Main.java', (v: string) => `private static final String DB_PASSWORD = "${v}";`, 'DB_PASSWORD'],
    ['Ruby', 'config/app.rb', (v: string) => `config.api_key = '${v}'`, 'config.api_key'],
    ['Ruby hash rocket', 'config/app.rb', (v: string) => `{ "access_token" => "${v}" }`, 'access_token'],
    ['a Java setter', 'src/Db.java', (v: string) => `config.setPassword("${v}");`, 'setPassword'],
    ['a builder', 'src/Client.kt', (v: string) => `Client.builder().withApiKey("${v}").build()`, 'withApiKey'],
    ['PHP', 'config.php', (v: string) => `$password = '${v}';`, '$password'],
    ['JSON', 'config/prod.json', (v: string) => `  "webhook_secret": "${v}",`, 'webhook_secret'],
    ['subscript', 'app.py', (v: string) => `config["private_key"] = "${v}"`, 'private_key'],
    ['.env without quotes', '.env.production', (v: string) => `STRIPE_WEBHOOK_SECRET=${v}`, 'STRIPE_WEBHOOK_SECRET'],
    ['shell export', 'deploy/run.sh', (v: string) => `export DB_PASSWORD=${v}`, 'DB_PASSWORD'],
    ['YAML', 'k8s/values.yaml', (v: string) => `  password: ${v}`, 'password'],
    ['YAML list item', 'ci/config.yml', (v: string) => `- token: ${v} # ci`, 'token'],
  ])('reports one in %s', (_language, path, line, name) => {
    const secret = value();
    const findings = findSecrets({ path, addedLines: added([line(secret)]) });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      ruleId: 'secrets.generic-credential',
      severity: 'important',
      type: 'security',
      cwe: 'CWE-798',
    });
    expect(findings[0]?.message).toContain(`\`${name}\``);
    expect(JSON.stringify(findings)).not.toContain(secret);
    expect(findings[0]?.codeSnippet).toContain(`${secret.slice(0, 4)}…`);
  });

  it('leaves a known format to its own rule', () => {
    const token = f.npm();
    expect(scan(`NPM_TOKEN = "${token}"`).map((x) => x.ruleId)).toEqual(['secrets.npm-token']);
  });

  const random = f.pick(BASE62, 32);
  it.each([
    ['changeme', 'password = "changeme"'],
    ['xxx', 'api_key = "xxxxxxxxxxxxxxxxxxxx"'],
    ['<...>', 'api_key = "<your-api-key-goes-here>"'],
    ['an interpolation', `password = "${DOLLAR}{DB_PASSWORD_FROM_VAULT}"`],
    ['a JavaScript environment read', 'const apiKey = process.env.ACME_API_KEY_2024;'],
    ['a Python environment read', 'SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]'],
    ['an empty value', 'password = ""'],
    ['one repeated character', 'secret = "aaaaaaaaaaaaaaaaaaaaaaaa"'],
    ['an example word', `api_key = "example${random}"`],
    ['a dummy word', `token = "dummy-${random}"`],
    ['a test word', `password = "test${random}"`],
    ['a fake word', `secret = "fake_${random}"`],
    ['a short value', 'password = "Zq8vLr2"'],
    ['a low-entropy value', 'token = "abababababababab12"'],
    ['words joined by underscores', 'token = "session_access_token_key"'],
    ['a storage key name', 'const TOKEN_KEY = "auth_token_v2";'],
    ['a key name marked internal', "GLOBAL_TOKEN = '!real_csrf_token'"],
    ['a name that identifies the credential', `SESSION_TOKEN_IDENTIFIER = "${random}"`],
    ['a sentence', 'password: "Enter your password to continue"'],
    ['a URL', 'token_endpoint = "https://auth.acme.io/oauth/token"'],
    ['a name about the credential', `password_hash = "${random}"`],
    ['a name that only contains a keyword', `tokenizer = "${random}"`],
    ['a name without a credential word', `build_id = "${random}"`],
    ['a comparison', `if token == "${random}":`],
    ['a getter', `const value = getPassword("${random}");`],
    ['a check', `if verify_password("${random}", stored):`],
    ['a setter given a variable', 'config.setPassword(System.getenv("SHOP_DB_PASSWORD"));'],
    ['a bare value outside config files', `password = ${random}`],
    ['a bare value that is a call', 'password: getPassword(config)'],
  ])('ignores %s', (_label, line) => {
    expect(scan(line, _label === 'a bare value that is a call' ? 'values.yaml' : 'src/settings.py')).toEqual([]);
  });
});
