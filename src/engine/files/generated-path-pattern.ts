import { pathParts } from './path-parts.js';

const GENERATED_DIRS = new Set(['dist', 'build', '__generated__']);
const GENERATED_SUFFIXES = ['.pb.go', '.pb.cc', '.pb.h', '_pb2.py', '_pb2_grpc.py', '_pb2.pyi', '.g.dart'];

/** The pattern by which a path is build output or generated code, or undefined. */
export function generatedPathPattern(path: string): string | undefined {
  const { dirs, base } = pathParts(path);
  const dir = dirs.find((d) => GENERATED_DIRS.has(d));
  if (dir) return `${dir}/`;
  const suffix = GENERATED_SUFFIXES.find((s) => base.endsWith(s) && base.length > s.length);
  if (suffix) return `*${suffix}`;
  // `*.generated.*`: the marker must sit between a name and an extension.
  const at = base.indexOf('.generated.');
  if (at > 0 && at + '.generated.'.length < base.length) return '*.generated.*';
  return undefined;
}
