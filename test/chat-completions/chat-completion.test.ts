import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletion } from '../../src/chat-completions/chat-completion.js';

const BASE = 'https://llm.example.test/v1';
const messages = [{ role: 'user', content: 'review this' }];
// Assembled at run time: nothing committed looks like a provider key.
const apiKey = ['test', 'key', String(Date.now())].join('-');

/** A recorded answer of an OpenAI-compatible endpoint, trimmed to what we read. */
const recorded = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'small-model',
  choices: [
    { index: 0, message: { role: 'assistant', content: '{"summary":"ok","comments":[]}' }, finish_reason: 'stop' },
  ],
  usage: { prompt_tokens: 812, completion_tokens: 17, total_tokens: 829 },
};

describe('chatCompletion', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());

  it('sends the model, the messages and the key, and reads the content and tokens', async () => {
    const scope = nock(BASE, { reqheaders: { authorization: `Bearer ${apiKey}` } })
      .post('/chat/completions', {
        model: 'small-model',
        messages,
        temperature: 0,
        response_format: { type: 'json_object' },
      })
      .reply(200, recorded);
    const result = await chatCompletion({
      baseUrl: BASE,
      apiKey,
      model: 'small-model',
      messages,
      timeoutMs: 5000,
      fetch,
    });
    expect(result).toEqual({ ok: true, content: '{"summary":"ok","comments":[]}', tokensUsed: 829 });
    scope.done();
  });

  it('turns a timeout, an error status and a malformed answer into warnings, never throws', async () => {
    nock(BASE).post('/chat/completions').delay(500).reply(200, recorded);
    expect(await chatCompletion({ baseUrl: BASE, apiKey, model: 'm', messages, timeoutMs: 50, fetch })).toEqual({
      ok: false,
      warning: 'the language model timed out',
      tokensUsed: 0,
    });
    nock(BASE)
      .post('/chat/completions')
      .reply(429, { error: { message: 'slow down' } });
    expect(await chatCompletion({ baseUrl: BASE, apiKey, model: 'm', messages, timeoutMs: 5000, fetch })).toEqual({
      ok: false,
      warning: 'the language model answered 429',
      tokensUsed: 0,
    });
    nock(BASE).post('/chat/completions').reply(200, '<html>gateway</html>');
    expect(await chatCompletion({ baseUrl: BASE, apiKey, model: 'm', messages, timeoutMs: 5000, fetch })).toEqual({
      ok: false,
      warning: 'the language model answered 200 without JSON',
      tokensUsed: 0,
    });
    nock(BASE)
      .post('/chat/completions')
      .reply(200, { choices: [], usage: { total_tokens: 12 } });
    expect(await chatCompletion({ baseUrl: BASE, apiKey, model: 'm', messages, timeoutMs: 5000, fetch })).toEqual({
      ok: false,
      warning: 'the language model answered without content',
      tokensUsed: 12,
    });
  });
});
