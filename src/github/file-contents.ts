import type { Octokit } from '@octokit/rest';
import { httpStatusOf } from './octokit.js';

/** Files larger than this are reviewed from their hunks alone: whole-file context is not worth it. */
export const MAX_CONTENT_BYTES = 1024 * 1024;
const PARALLEL = 8;

/**
 * The text of `paths` at commit `sha`, for rules that need the whole file as context. A file
 * GitHub will not give (deleted, too large, a submodule) is simply absent from the answer: the
 * engine then parses the hunks' new side. Other failures propagate (the job retries).
 */
export async function readFileContents(
  octokit: Octokit,
  repo: { owner: string; repo: string },
  sha: string,
  paths: string[],
): Promise<Map<string, string>> {
  const contents = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      try {
        const response = await octokit.repos.getContent({ ...repo, path, ref: sha, mediaType: { format: 'raw' } });
        const text = response.data as unknown;
        if (typeof text === 'string' && Buffer.byteLength(text) <= MAX_CONTENT_BYTES) contents.set(path, text);
      } catch (error) {
        const status = httpStatusOf(error);
        if (status !== 404 && status !== 403 && status !== 422) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, paths.length) }, worker));
  return contents;
}
