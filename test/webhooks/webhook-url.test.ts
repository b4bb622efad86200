import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import { parseWebhookUrl } from '../../src/webhooks/webhook-url.js';

/** The issue parseWebhookUrl refuses `url` with (it must refuse), as the API answers it. */
function refusal(url: string, allowPrivate: boolean): string {
  try {
    parseWebhookUrl(url, allowPrivate);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).details?.issue as string;
  }
  throw new Error(`${url} was accepted`);
}

describe('parseWebhookUrl and plain http', () => {
  it.each(['http://127.0.0.1:8080/hook', 'http://127.9.9.9/hook', 'http://[::1]:8080/hook', 'http://localhost:8080/'])(
    'admits %s with WEBHOOK_ALLOW_PRIVATE',
    (url) => {
      expect(parseWebhookUrl(url, true)).toBe(url);
    },
  );

  it('admits http to a name with WEBHOOK_ALLOW_PRIVATE, whose addresses are judged when delivering', () => {
    expect(parseWebhookUrl('http://receiver.internal/hook', true)).toBe('http://receiver.internal/hook');
  });

  it.each(['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'http://hooks.example.com/hook'])(
    'refuses %s without WEBHOOK_ALLOW_PRIVATE, naming it',
    (url) => {
      expect(refusal(url, false)).toBe(
        'must use https (WEBHOOK_ALLOW_PRIVATE=true admits http for loopback receivers)',
      );
    },
  );

  it.each(['http://10.1.2.3/hook', 'http://192.168.1.20/hook', 'http://[fd00::1]/hook', 'http://93.184.215.14/hook'])(
    'refuses %s even with WEBHOOK_ALLOW_PRIVATE, saying no setting lifts it',
    (url) => {
      expect(refusal(url, true)).toBe(
        'must use https: plain http is admitted only for loopback receivers (127.0.0.0/8, ::1, localhost); ' +
          'no setting lifts this, use https',
      );
    },
  );

  it('refuses other schemes whatever the setting', () => {
    expect(refusal('ftp://127.0.0.1/hook', true)).toBe('must use https (no setting admits ftp:)');
  });

  it('names the setting when refusing a private https address', () => {
    expect(refusal('https://10.1.2.3/hook', false)).toBe(
      'must not point at a private address (WEBHOOK_ALLOW_PRIVATE=true admits it)',
    );
    expect(parseWebhookUrl('https://10.1.2.3/hook', true)).toBe('https://10.1.2.3/hook');
  });
});
