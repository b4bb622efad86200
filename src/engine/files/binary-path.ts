import { pathParts } from './path-parts.js';

const BINARY_EXTENSIONS = new Set(
  (
    'png jpg jpeg gif bmp ico webp avif tif tiff psd pdf zip gz tgz bz2 xz zst 7z rar jar war ear class ' +
    'so dylib dll exe bin o a lib wasm woff woff2 ttf otf eot mp3 mp4 m4a mov avi mkv wav flac ogg webm ' +
    'sqlite sqlite3 db pyc pyo whl gem nupkg'
  ).split(' '),
);

/**
 * Whether a path's extension names a binary format. Only consulted when there is no patch:
 * GitHub sends none for binary files, and the path is then the only evidence.
 */
export function isBinaryPath(path: string): boolean {
  const { base } = pathParts(path);
  const dot = base.lastIndexOf('.');
  return dot > 0 && BINARY_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}
