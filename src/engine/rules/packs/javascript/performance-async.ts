import type { Rule } from '../../rule-schema.js';
import { calleeName, calleeProperty, FUNCTION, LANGUAGES, LOOP_OR_FUNCTION } from './fragments.js';

/** An awaited call per loop item (see js.await-in-loop): the item `$ITEM` in its arguments. */
const ITEM_CALL = {
  kind: 'call_expression',
  // `find(id)`, or the item in an object argument: `update({ where: { id } })`.
  has: {
    field: 'arguments',
    has: {
      any: [
        { kind: 'identifier' },
        {
          kind: 'shorthand_property_identifier',
          inside: { kind: 'pair', regex: '^where\\s*:', stopBy: 'end' },
        },
      ],
      pattern: '$ITEM',
      stopBy: 'end',
    },
  },
  not: {
    any: [
      { has: { field: 'arguments', has: { kind: 'identifier', regex: '^(trx|tx|transaction)$' } } },
      { regex: '^(\\w+\\.)*(sleep|delay|wait|setTimeout|timeout|backoff)\\w*\\(' },
    ],
  },
};

export const awaitInLoopRule: Rule = {
  id: 'js.await-in-loop',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'warning',
  message:
    'Awaiting a call per item inside a for-of loop runs the queries or requests one after another (N+1): when they are independent, start them together with Promise.all or fetch them in one batch.',
  rule: {
    kind: 'await_expression',
    all: [
      // The nearest loop is a for-of/for-in over a collection, and its body is not a search that
      // stops early (return/break make the order matter).
      {
        inside: {
          kind: 'for_in_statement',
          field: 'body',
          stopBy: LOOP_OR_FUNCTION,
          has: { field: 'left', pattern: '$ITEM' },
          not: {
            has: {
              field: 'body',
              any: [{ kind: 'return_statement' }, { kind: 'break_statement' }],
              stopBy: 'end',
            },
          },
        },
      },
      // The awaited call takes the loop's item (a lookup per item), outside a transaction
      // (whose statements must run in order on one connection) and is not a deliberate pause.
      {
        has: {
          any: [
            ITEM_CALL,
            // With a fallback: `await fetch(dep.url).catch((err) => ({ ok: false, err }))`.
            {
              kind: 'call_expression',
              ...calleeProperty('^(catch|then|finally)$'),
              all: [{ has: { field: 'function', has: { field: 'object', ...ITEM_CALL } } }],
            },
          ],
        },
      },
    ],
  },
};

export const syncIoInHandlerRule: Rule = {
  id: 'js.sync-io-in-handler',
  languages: LANGUAGES,
  type: 'performance',
  severity: 'warning',
  message:
    'Synchronous file I/O inside a request handler blocks the event loop, so every other request waits: use the fs.promises version and await it.',
  rule: {
    kind: 'call_expression',
    all: [
      {
        any: [
          calleeProperty('^[a-z][A-Za-z]*Sync$', '^(fs|require\\(.fs.\\))$'),
          calleeName(
            '^(readFileSync|writeFileSync|appendFileSync|readdirSync|statSync|existsSync|mkdirSync|unlinkSync|copyFileSync)$',
          ),
        ],
      },
      {
        inside: {
          ...FUNCTION,
          stopBy: FUNCTION,
          any: [
            // Express/Fastify/Next API routes: `(req, res)`, `handler(_req: NextApiRequest, res: NextApiResponse)`.
            { has: { field: 'parameters', regex: '^\\(\\s*_?(req|request)\\b[^,]*,\\s*_?(res|reply|response)\\b' } },
            // Koa routes: `router.get('/backups', async (ctx) => ...)`.
            {
              has: { field: 'parameters', regex: '^\\(\\s*ctx\\b' },
              inside: {
                kind: 'arguments',
                inside: {
                  kind: 'call_expression',
                  ...calleeProperty('^(get|post|put|patch|delete|del|all|use|head)$'),
                },
              },
            },
            // Next.js route handlers: `export async function GET(request: NextRequest)`.
            {
              kind: 'function_declaration',
              has: { field: 'name', regex: '^(GET|POST|PUT|PATCH|DELETE|HEAD)$' },
              inside: { kind: 'export_statement' },
            },
          ],
        },
      },
    ],
  },
};
