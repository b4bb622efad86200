/** The directories and the base name of a repository path (`\` accepted from Windows tools). */
export function pathParts(path: string): { dirs: string[]; base: string } {
  const parts = path.replaceAll('\\', '/').split('/');
  const base = parts.pop() ?? '';
  return { dirs: parts, base };
}
