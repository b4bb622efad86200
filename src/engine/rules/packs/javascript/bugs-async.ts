import type { Rule } from '../../rule-schema.js';
import { calleeName, calleeProperty, callOfFileFunction, FUNCTION, firstArgument, LANGUAGES } from './fragments.js';

const FS_PROMISE_FUNCTIONS =
  '^(readFile|writeFile|appendFile|mkdir|rm|rmdir|unlink|rename|copyFile|cp|readdir|stat|access|open|truncate|chmod)$';

export const floatingPromiseRule: Rule = {
  id: 'js.floating-promise',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'warning',
  message:
    'This promise is neither awaited, returned nor given a rejection handler: a failure becomes an unhandled rejection (which crashes Node) and callers cannot wait for it.',
  rule: {
    kind: 'expression_statement',
    has: {
      any: [
        { kind: 'new_expression', has: { field: 'constructor', regex: '^Promise$' } },
        {
          kind: 'call_expression',
          all: [calleeProperty('^then$'), { has: { field: 'arguments', not: { has: { nthChild: 2 } } } }],
        },
      ],
    },
  },
};

export const missingAwaitFsRule: Rule = {
  id: 'js.missing-await-fs',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'A fs.promises call whose promise is dropped: the code after it runs before the file operation finishes and its errors are never seen. Await it.',
  rule: {
    pattern: '$F($$$ARGS)',
    kind: 'call_expression',
    inside: { kind: 'expression_statement' },
    any: [
      calleeProperty(FS_PROMISE_FUNCTIONS, '^(fs\\.promises|fsp|fsPromises|promises)$'),
      // The same functions imported by name from `fs/promises`: `import { writeFile } from 'node:fs/promises'`.
      {
        ...calleeName(FS_PROMISE_FUNCTIONS),
        inside: {
          kind: 'program',
          stopBy: 'end',
          regex: '(from\\s*|require\\(\\s*)[\'"](node:)?fs/promises[\'"]',
        },
      },
    ],
  },
  fix: 'await $F($$$ARGS)',
};

export const asyncForeachRule: Rule = {
  id: 'js.async-foreach',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'forEach ignores the promises its async callback returns: the caller carries on before any of the work finishes and a rejection is unhandled. Use a for-of loop with await, or await Promise.all(items.map(async ...)).',
  rule: {
    kind: 'call_expression',
    all: [
      calleeProperty('^forEach$'),
      firstArgument({ any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }], regex: '^async\\b' }),
    ],
  },
};

export const unawaitedWriteRule: Rule = {
  id: 'js.unawaited-write',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'This database write (save/insert/update...) returns a promise that is dropped inside an async function: the function goes on (and may respond) before the write is done, and a failure becomes an unhandled rejection instead of an error. Await it.',
  rule: {
    kind: 'expression_statement',
    has: {
      kind: 'call_expression',
      all: [
        {
          any: [
            calleeProperty(
              '^(save|insertOne|insertMany|updateOne|updateMany|deleteOne|deleteMany|replaceOne|upsert|bulkWrite|findOneAndUpdate|findByIdAndUpdate|findByIdAndDelete|persist)$',
            ),
            // A model's static create/update (Mongoose, Sequelize): `AuditLog.create({...})`.
            {
              ...calleeProperty('^(create|bulkCreate|update|destroy|increment|decrement)$', '^[A-Z][a-z]\\w*$'),
              not: {
                has: {
                  field: 'function',
                  has: {
                    field: 'object',
                    regex:
                      '^(Object|Promise|Array|Reflect|React|Vue|Buffer|Date|Math|JSON|Intl|Symbol|Error|Map|Set|WeakMap|Proxy|Atomics)$',
                  },
                },
              },
            },
            // `insert` is also a method of in-memory trees and lists.
            {
              ...calleeProperty('^insert$'),
              not: {
                has: {
                  field: 'function',
                  has: {
                    field: 'object',
                    regex: '(?i)(tree|trie|heap|list|set|map|index|queue|buffer|text|editor|range|node)$',
                  },
                },
              },
            },
          ],
        },
        // A canvas context's save() is synchronous.
        { not: { has: { field: 'function', has: { field: 'object', regex: '(?i)(ctx|context|canvas)$' } } } },
      ],
    },
    all: [
      // A cheap first look at the method name, so that the checks of the function around it
      // (which read its text) run only for statements that call a write.
      {
        has: {
          kind: 'call_expression',
          has: {
            field: 'function',
            kind: 'member_expression',
            has: {
              field: 'property',
              regex:
                '^(save|insert|insertOne|insertMany|update|updateOne|updateMany|deleteOne|deleteMany|replaceOne|upsert|bulkWrite|findOneAndUpdate|findByIdAndUpdate|findByIdAndDelete|persist|create|bulkCreate|destroy|increment|decrement)$',
            },
          },
        },
      },
      // The nearest function is async ...
      { inside: { ...FUNCTION, regex: '^((public|private|protected|static)\\s+)*async\\b', stopBy: FUNCTION } },
      {
        any: [
          // ... and already awaits something: its calls are expected to be awaited;
          { inside: { ...FUNCTION, has: { kind: 'await_expression', stopBy: 'end' }, stopBy: FUNCTION } },
          // or the write is a model's static call (Mongoose/Sequelize: `Order.updateOne(...)`).
          {
            has: {
              kind: 'call_expression',
              has: { field: 'function', has: { field: 'object', regex: '^[A-Z][a-z]\\w*$' } },
            },
          },
        ],
      },
    ],
  },
};

export const unawaitedRedisWriteRule: Rule = {
  id: 'js.unawaited-redis-write',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'This Redis write returns a promise that is dropped inside an async function: the function resolves before the key is stored (a read right after can miss it) and a connection error becomes an unhandled rejection. Await (or return) it.',
  rule: {
    kind: 'expression_statement',
    has: {
      kind: 'call_expression',
      ...calleeProperty(
        '^(set|setex|psetex|setnx|mset|hset|hmset|hsetnx|hdel|hincrby|del|unlink|expire|pexpire|expireat|incr|incrby|decr|decrby|lpush|rpush|ltrim|lrem|sadd|srem|zadd|zrem|zincrby|xadd|publish)$',
        '(?i)^(this\\.)?\\w*redis\\w*$',
      ),
    },
    inside: { ...FUNCTION, regex: '^((public|private|protected|static)\\s+)*async\\b', stopBy: FUNCTION },
  },
};

export const unawaitedOrmWriteRule: Rule = {
  id: 'js.unawaited-orm-write',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'This ORM write (a TypeORM repository or Prisma call) returns a promise that is dropped inside an async function: the function resolves before the row is written and a failure becomes an unhandled rejection. Await (or return) it.',
  rule: {
    kind: 'expression_statement',
    has: {
      kind: 'call_expression',
      any: [
        // Prisma: `prisma.user.update(...)`, `this.prisma.order.create(...)`.
        {
          all: [
            calleeProperty(
              '^(create|createMany|update|updateMany|upsert|delete|deleteMany)$',
              '^(this\\.)?(prisma|db|tx)\\.[a-z]\\w*$',
            ),
            {
              inside: {
                kind: 'program',
                stopBy: 'end',
                // The client, or a module of the project that exports it: `import { prisma } from '@/lib/prisma'`.
                regex: '(@prisma/client|PrismaClient|PrismaService|from\\s+[\'"][^\'"]*\\bprisma[\'"])',
              },
            },
          ],
        },
        // TypeORM: a repository field of the class (`@InjectRepository(...) private readonly users: Repository<User>`).
        {
          all: [
            calleeProperty(
              '^(save|insert|update|delete|remove|softDelete|softRemove|restore|increment|decrement|upsert)$',
            ),
            { has: { field: 'function', has: { field: 'object', pattern: 'this.$REPO' } } },
            {
              inside: {
                kind: 'program',
                stopBy: 'end',
                has: {
                  stopBy: 'end',
                  regex:
                    '^(@\\w+\\([^)]*\\)\\s*)?((private|public|protected|readonly)\\s+)*\\w+[?!]?\\s*:\\s*Repository<',
                  has: { pattern: '$REPO' },
                },
              },
            },
          ],
        },
      ],
    },
    inside: { ...FUNCTION, regex: '^((public|private|protected|static)\\s+)*async\\b', stopBy: FUNCTION },
  },
};

export const unawaitedSideEffectRule: Rule = {
  id: 'js.unawaited-side-effect',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'important',
  message:
    'This call starts asynchronous work (an email, an event, an audit record, a cache invalidation) whose promise is dropped inside an async function that awaits its other calls: the function goes on (and may respond) before it is done, and a failure becomes an unhandled rejection instead of an error. Await it, or hand it to a queue with a rejection handler.',
  rule: {
    kind: 'expression_statement',
    has: {
      kind: 'call_expression',
      any: [
        // `sendWelcomeEmail(user)`, `notifyOwner(team)`, `enqueueExport(job)`.
        calleeName(
          '^(send|publish|notify|enqueue|deliver|dispatch|email|invalidate|revoke|charge|refund|upload|sync|audit|track)[A-Z]\\w*$',
        ),
        // `this.events.publish(...)`, `pubsub.publish(...)`, `mailer.sendMail(...)`, `this.mailService.sendReset(...)`.
        calleeProperty('^(publish|publishEvent|sendMail|sendEmail|enqueue)$'),
        calleeProperty('^send\\w*$', '(?i)(mail|email|sms|notif|push|sns|sqs|producer|webhook)\\w*$'),
        // `auditLog.record(...)`, `this.audit.log(...)`, `auditService.create(...)`.
        calleeProperty('^(record|log|write|create|add|track|append)$', '(?i)(^|\\.)audit\\w*$'),
        // `cache.del(key)`, `this.cache.invalidate(key)` (a Map would use `delete`).
        calleeProperty('^(del|invalidate\\w*|evict|purge|expire|unlink|flush\\w*)$', '(?i)cache\\w*$'),
        // `queue.add(job)` (BullMQ), `this.emailQueue.add(...)`.
        calleeProperty('^(add|addBulk)$', '(?i)queue$'),
        // `purgeExpiredSessions()`: an async function of this file.
        callOfFileFunction('$F', [
          {
            any: [
              { kind: 'function_declaration', regex: '^async\\b' },
              { kind: 'variable_declarator', has: { field: 'value', regex: '^async\\b' } },
            ],
          },
        ]),
      ],
    },
    all: [
      // The nearest function is async and awaits something: its calls are expected to be awaited.
      { inside: { ...FUNCTION, regex: '^((public|private|protected|static)\\s+)*async\\b', stopBy: FUNCTION } },
      { inside: { ...FUNCTION, has: { kind: 'await_expression', stopBy: 'end' }, stopBy: FUNCTION } },
    ],
  },
};

export const swallowedPromiseAllRule: Rule = {
  id: 'js.swallowed-promise-all',
  languages: LANGUAGES,
  type: 'bug',
  severity: 'warning',
  message:
    'Awaiting Promise.all(...).catch(() => {}) throws away every failure of the batch: the caller believes all of it succeeded. Log or rethrow the error, or use Promise.allSettled and report the rejected ones.',
  rule: {
    kind: 'call_expression',
    all: [
      calleeProperty('^catch$'),
      {
        has: {
          field: 'function',
          has: { field: 'object', kind: 'call_expression', regex: '^Promise\\.(all|any|race)\\(' },
        },
      },
      firstArgument({
        any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }],
        has: { field: 'body', regex: '^(\\{\\s*\\}|undefined)$' },
      }),
      { inside: { kind: 'await_expression' } },
    ],
  },
};
