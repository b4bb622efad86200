import type { Constant } from './ir.js';

/** Constant folding of binary operators; undefined when the result is not a known constant. */
export function foldBinary(op: string, a: Constant, b: Constant): Constant | undefined {
  if (typeof a === 'number' && typeof b === 'number') {
    switch (op) {
      case '+':
        return a + b;
      case '-':
        return a - b;
      case '*':
        return a * b;
      case '/':
        return b === 0 ? undefined : a / b;
      case '//':
        return b === 0 ? undefined : Math.floor(a / b);
      case '%':
        return b === 0 ? undefined : a % b;
    }
  }
  if (op === '+' && (typeof a === 'string' || typeof b === 'string')) return `${a}${b}`;
  switch (op) {
    case '==':
    case '===':
    case 'is':
      return a === b;
    case '!=':
    case '!==':
    case 'is not':
      return a !== b;
    case '&&':
    case 'and':
      return Boolean(a) && Boolean(b);
    case '||':
    case 'or':
      return Boolean(a) || Boolean(b);
  }
  if ((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string')) {
    switch (op) {
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '>':
        return a > b;
      case '>=':
        return a >= b;
    }
  }
  return undefined;
}

export function foldUnary(op: string, a: Constant): Constant | undefined {
  if (op === '!' || op === 'not') return !a;
  if (op === '-' && typeof a === 'number') return -a;
  return undefined;
}

/** String methods on a constant receiver, in the spellings of the languages we read. */
export function foldMethod(name: string, receiver: Constant, args: Constant[]): Constant | undefined {
  if (typeof receiver !== 'string') return undefined;
  const [a, b] = args;
  switch (name) {
    case 'charAt':
      return typeof a === 'number' ? (receiver[a] ?? undefined) : undefined;
    case 'length':
      return receiver.length;
    case 'equals':
      return receiver === a;
    case 'equalsIgnoreCase':
      return typeof a === 'string' ? receiver.toLowerCase() === a.toLowerCase() : undefined;
    case 'substring':
      return typeof a === 'number' ? receiver.substring(a, typeof b === 'number' ? b : undefined) : undefined;
    case 'toUpperCase':
    case 'upper':
      return receiver.toUpperCase();
    case 'toLowerCase':
    case 'lower':
      return receiver.toLowerCase();
    case 'trim':
    case 'strip':
      return receiver.trim();
    case 'startsWith':
    case 'startswith':
      return typeof a === 'string' ? receiver.startsWith(a) : undefined;
    case 'endsWith':
    case 'endswith':
      return typeof a === 'string' ? receiver.endsWith(a) : undefined;
    case 'contains':
      return typeof a === 'string' ? receiver.includes(a) : undefined;
    case 'indexOf':
    case 'find':
      return typeof a === 'string' ? receiver.indexOf(a) : undefined;
    case 'isEmpty':
      return receiver.length === 0;
  }
  return undefined;
}

/** Truthiness as the languages we read decide a constant condition. */
export const truthy = (c: Constant): boolean => Boolean(c);
