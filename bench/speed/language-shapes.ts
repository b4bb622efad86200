import { type Block, cap } from './block.js';
import type { SpeedLanguage } from './generate.js';
import { GO_BLOCKS, GO_PROBLEMS } from './go-blocks.js';
import { JAVA_BLOCKS, JAVA_PROBLEMS } from './java-blocks.js';
import { JS_BLOCKS, JS_PROBLEMS } from './javascript-blocks.js';
import { PY_BLOCKS, PY_PROBLEMS } from './python-blocks.js';
import { RUBY_BLOCKS, RUBY_PROBLEMS } from './ruby-blocks.js';
import { TS_BLOCKS, TS_PROBLEMS } from './typescript-blocks.js';

/** How a file of each language starts and ends, what its blocks are and where it lives. */
export interface LanguageShape {
  header: (name: string) => string;
  footer: string;
  blocks: Block[];
  problems: Block[];
  dir: string;
}

export const SHAPES: Record<SpeedLanguage, LanguageShape> = {
  javascript: {
    header: () =>
      "import express from 'express';\nimport { service } from './service.js';\n\nconst router = express.Router();\n\n",
    footer: 'export default router;\n',
    blocks: JS_BLOCKS,
    problems: JS_PROBLEMS,
    dir: 'web/src/routes',
  },
  typescript: {
    header: () =>
      "import { exec } from 'node:child_process';\nimport { writeFileSync } from 'node:fs';\nimport type { Db, HttpClient } from '../types.js';\nimport { parseUser as parseOrder, parseUser, parseUser as parseInvoice } from './parse.js';\n\n",
    footer: '',
    blocks: TS_BLOCKS,
    problems: TS_PROBLEMS,
    dir: 'api/src/services',
  },
  python: {
    header: () =>
      'import hashlib\nimport pickle\nimport subprocess\nimport time\n\nfrom flask import abort, jsonify\n\nfrom .app import app, repository\n\n\n',
    footer: '',
    blocks: PY_BLOCKS,
    problems: PY_PROBLEMS,
    dir: 'service/app/handlers',
  },
  go: {
    header: (name) =>
      `package ${name}\n\nimport (\n\t"context"\n\t"crypto/tls"\n\t"database/sql"\n\t"fmt"\n\t"net/http"\n\t"os/exec"\n\t"sync"\n)\n\n`,
    footer: '',
    blocks: GO_BLOCKS,
    problems: GO_PROBLEMS,
    dir: 'internal',
  },
  java: {
    header: (name) =>
      `package com.acme.${name};\n\nimport java.sql.*;\nimport java.util.*;\nimport java.security.MessageDigest;\n\npublic class ${cap(name)}Service {\n    private final Connection connection;\n\n    public ${cap(name)}Service(Connection connection) {\n        this.connection = connection;\n    }\n\n`,
    footer: '}\n',
    blocks: JAVA_BLOCKS,
    problems: JAVA_PROBLEMS,
    dir: 'src/main/java/com/acme',
  },
  ruby: {
    header: (name) => `class ${cap(name)}Controller < ApplicationController\n`,
    footer: 'end\n',
    blocks: RUBY_BLOCKS,
    problems: RUBY_PROBLEMS,
    dir: 'app/controllers',
  },
};
