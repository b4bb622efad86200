import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../src/engine/secrets/find-secrets.js';
import { added, BASE64, fakes } from './fake-secrets.js';

const f = fakes(11);
const header = (kind = 'RSA ') => `-----BEGIN ${kind}PRIVATE ${'KEY'}-----`;
const footer = (kind = 'RSA ') => `-----END ${kind}PRIVATE ${'KEY'}-----`;

describe('private keys', () => {
  it.each([
    ['RSA ', 'an RSA private key'],
    ['EC ', 'an EC private key'],
    ['OPENSSH ', 'an OpenSSH private key'],
    ['DSA ', 'a DSA private key'],
    ['ENCRYPTED ', 'an encrypted private key'],
    ['', 'a private key'],
  ])('reports a %sPRIVATE KEY block once, on its BEGIN line', (kind, noun) => {
    const lines = ['# deploy key', ...f.privateKeyLines(kind)];
    const findings = findSecrets({ path: 'deploy/id_key', addedLines: added(lines, 10) });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      ruleId: 'secrets.private-key',
      severity: 'critical',
      type: 'security',
      cwe: 'CWE-321',
      cvssScore: 9.8,
      line: 11,
    });
    expect(findings[0]?.message.startsWith(`${noun[0]?.toUpperCase()}${noun.slice(1)} is committed`)).toBe(true);
    const json = JSON.stringify(findings);
    for (const body of lines.slice(2, -1)) expect(json).not.toContain(body);
  });

  it('reads a PGP block with its armour headers and blank line', () => {
    const lines = [
      `-----BEGIN PGP PRIVATE ${'KEY'} BLOCK-----`,
      'Version: GnuPG v2',
      '',
      ...Array.from({ length: 10 }, () => f.pick(BASE64, 64)),
      `=${f.pick(BASE64, 4)}`,
      `-----END PGP PRIVATE ${'KEY'} BLOCK-----`,
    ];
    const findings = findSecrets({ path: 'keys/signing.asc', addedLines: added(lines) });
    expect(findings.map((x) => [x.ruleId, x.line])).toEqual([['secrets.private-key', 1]]);
  });

  it('finds a key inside one JSON string with \\n escapes and redacts its body', () => {
    const body = Array.from({ length: 6 }, () => f.pick(BASE64, 64));
    const value = `${header('')}\\n${body.join('\\n')}\\n${footer('')}\\n`;
    const line = `  "private_key": "${value}",`;
    const findings = findSecrets({ path: 'service-account.json', addedLines: added([line]) });
    expect(findings).toHaveLength(1);
    expect(findings[0]?.ruleId).toBe('secrets.private-key');
    expect(findings[0]?.codeSnippet).toBe(`"private_key": "${header('')}…\\n",`);
    for (const b of body) expect(JSON.stringify(findings)).not.toContain(b);
  });

  it('finds a key assembled from string pieces in code', () => {
    const body = Array.from({ length: 8 }, () => f.pick(BASE64, 64));
    const lines = [`const key = '${header()}\\n' +`, ...body.map((b) => `  '${b}\\n' +`), `  '${footer()}';`];
    const findings = findSecrets({ path: 'test/fixtures/keys.ts', addedLines: added(lines) });
    expect(findings.map((x) => [x.ruleId, x.line])).toEqual([['secrets.private-key', 1]]);
  });

  it('ignores a header with no key after it (code that looks for keys, documentation)', () => {
    const lines = [
      `const RSA_HEADER = '${header()}';`,
      `const RSA_FOOTER = '${footer()}';`,
      'export function isPrivateKey(pem: string): boolean { return pem.startsWith(RSA_HEADER); }',
    ];
    expect(findSecrets({ path: 'src/pem.ts', addedLines: added(lines) })).toEqual([]);
    expect(
      findSecrets({ path: 'README.md', addedLines: added([`Paste the file starting with ${header('')}.`]) }),
    ).toEqual([]);
  });

  it('reads the body only from consecutive added lines', () => {
    const lines = f.privateKeyLines();
    // Only the header was added; the body is context (unchanged) in this hunk.
    expect(findSecrets({ path: 'id_rsa', addedLines: added(lines.slice(0, 1)) })).toEqual([]);
    // A gap after the second body line: too little body and no END line in the added run.
    const gapped = new Map([...added(lines)].filter(([n]) => n !== 4));
    expect(findSecrets({ path: 'id_rsa', addedLines: gapped })).toEqual([]);
  });

  it('reports a long body whose END line is outside the added lines', () => {
    const lines = f.privateKeyLines('OPENSSH ', 20).slice(0, -2);
    const findings = findSecrets({ path: 'id_ed25519', addedLines: added(lines) });
    expect(findings.map((x) => x.ruleId)).toEqual(['secrets.private-key']);
  });

  it('keeps the fingerprint when the key moves and changes it when the key changes', () => {
    const lines = f.privateKeyLines();
    const at = (first: number, keyLines = lines) =>
      findSecrets({ path: 'certs/server.key', addedLines: added(keyLines, first) })[0]?.fingerprint;
    expect(at(1)).toBeDefined();
    expect(at(1)).toBe(at(250));
    expect(at(1)).not.toBe(at(1, f.privateKeyLines()));
  });

  it('does not report tokens that happen to appear inside a key body', () => {
    const lines = f.privateKeyLines();
    lines[3] = `AK${'IA'}${'Q'.repeat(2)}${f.pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 14)}${f.pick(BASE64, 44)}`.slice(
      0,
      64,
    );
    const findings = findSecrets({ path: 'id_rsa', addedLines: added(lines) });
    expect(findings.map((x) => x.ruleId)).toEqual(['secrets.private-key']);
  });
});
