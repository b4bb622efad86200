/** What the generated files are made of: a block of code for a name (a noun) and a number. */
export type Block = (n: string, i: number) => string;

export const NOUNS = [
  'user',
  'order',
  'invoice',
  'account',
  'session',
  'report',
  'product',
  'payment',
  'ticket',
  'project',
];
export const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
