import type { Rule } from '../../rule-schema.js';
import { firstArgument, fromRequest } from './fragments.js';

/** A path passed through a sanitiser: `secure_filename(name)`, `os.path.basename(name)`. */
const PATH_SANITIZED = {
  has: {
    stopBy: 'end',
    kind: 'call',
    regex: '^(secure_filename|os\\.path\\.basename|werkzeug\\.utils\\.secure_filename)\\(',
  },
};

export const pathTraversalRule: Rule = {
  id: 'py.path-traversal',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'A file path taken from the request: "../" in the value reads or writes files outside the intended folder (path traversal). Use werkzeug.utils.secure_filename or send_from_directory, or check the resolved path stays under the base.',
  rule: {
    kind: 'call',
    any: [
      {
        all: [
          {
            has: {
              field: 'function',
              regex: '^(open|io\\.open|codecs\\.open|send_file|os\\.remove|os\\.unlink|shutil\\.rmtree|FileResponse)$',
            },
          },
          firstArgument({ ...fromRequest(), not: PATH_SANITIZED }),
        ],
      },
      // pathlib on a path built from the request: `(BASE / name).read_text()`, `target.unlink()`.
      {
        has: {
          field: 'function',
          kind: 'attribute',
          all: [
            {
              has: {
                field: 'attribute',
                regex: '^(read_text|read_bytes|write_text|write_bytes|open|unlink|rmdir|touch)$',
              },
            },
            {
              has: {
                field: 'object',
                any: [
                  { ...fromRequest(), not: PATH_SANITIZED },
                  { kind: 'parenthesized_expression', has: { ...fromRequest(), not: PATH_SANITIZED } },
                ],
              },
            },
          ],
        },
      },
      // An upload saved under the name the client sent: `f.save(os.path.join(UPLOADS, f.filename))`.
      {
        all: [
          {
            has: {
              field: 'function',
              kind: 'attribute',
              all: [{ has: { field: 'attribute', regex: '^save$' } }, { has: { field: 'object', pattern: '$UPLOAD' } }],
            },
          },
          firstArgument({
            has: {
              stopBy: 'end',
              kind: 'attribute',
              all: [
                { has: { field: 'object', pattern: '$UPLOAD' } },
                { has: { field: 'attribute', regex: '^filename$' } },
              ],
            },
            not: PATH_SANITIZED,
          }),
        ],
      },
    ],
  },
  cwe: 'CWE-22',
  cvss: 7.5,
};

export const ssrfRule: Rule = {
  id: 'py.ssrf',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'An outgoing request to a URL taken from the request: the caller can make the server reach internal services or cloud metadata (SSRF). Allow-list hosts, or map a key to a fixed URL.',
  rule: {
    kind: 'call',
    all: [
      {
        has: {
          field: 'function',
          regex:
            '^(requests|httpx|aiohttp|session|self\\.session|client|self\\.client|http|http_client|self\\.http|urllib\\.request|urllib3)\\.(get|post|put|patch|delete|head|request|urlopen)$|^urlopen$',
        },
      },
      // Not a fixed host with the value in its path: `f"{RATES_URL}/{currency}"`, `f"https://api.x/{id}"`.
      firstArgument({ ...fromRequest(), not: { regex: '^[fFrR]*["\'](https?://[^{/]+/|\\{[A-Z][A-Z0-9_]*\\}/|/)' } }),
    ],
  },
  cwe: 'CWE-918',
  cvss: 8.6,
};

export const flaskDebugRule: Rule = {
  id: 'py.flask-debug',
  languages: ['python'],
  type: 'security',
  severity: 'important',
  message:
    'Running the app with debug=True exposes the Werkzeug debugger, which lets anyone who reaches it run code on the server. Read the flag from configuration and keep it off in deployments.',
  rule: {
    kind: 'keyword_argument',
    regex: '^debug\\s*=\\s*True$',
    inside: {
      kind: 'argument_list',
      inside: { kind: 'call', has: { field: 'function', regex: '(?i)app\\.run$|^socketio\\.run$' } },
    },
  },
  cwe: 'CWE-489',
  cvss: 7.5,
};
