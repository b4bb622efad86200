/**
 * One call to an OpenAI-compatible chat completions endpoint (`{LLM_BASE_URL}/chat/completions`).
 * Any failure (network, status, shape, time) comes back as a value, never a throw: the model is an
 * extra, and the review goes on without it.
 */
export interface ChatCompletionOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  messages: { role: string; content: string }[];
  timeoutMs: number;
  fetch: typeof fetch;
}

export type ChatCompletionResult =
  | { ok: true; content: string; tokensUsed: number }
  | { ok: false; warning: string; tokensUsed: number };

export async function chatCompletion(options: ChatCompletionOptions): Promise<ChatCompletionResult> {
  let response: Response;
  try {
    response = await options.fetch(`${options.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: options.model,
        messages: options.messages,
        temperature: 0,
        response_format: { type: 'json_object' },
      }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      ok: false,
      warning: timedOut ? 'the language model timed out' : 'the language model could not be reached',
      tokensUsed: 0,
    };
  }
  let body: { choices?: { message?: { content?: unknown } }[]; usage?: { total_tokens?: unknown } };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    return { ok: false, warning: `the language model answered ${response.status} without JSON`, tokensUsed: 0 };
  }
  const tokensUsed = typeof body.usage?.total_tokens === 'number' ? body.usage.total_tokens : 0;
  if (!response.ok) return { ok: false, warning: `the language model answered ${response.status}`, tokensUsed };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string')
    return { ok: false, warning: 'the language model answered without content', tokensUsed };
  return { ok: true, content, tokensUsed };
}
