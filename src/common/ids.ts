import { randomBase62 } from './base62.js';

export type IdPrefix = 'rev' | 'cmt' | 'tok' | 'usr' | 'org' | 'team' | 'whk' | 'evt' | 'req' | 'dlv' | 'ses';

/** Public identifiers: a type prefix and 22 random base62 characters (~131 bits). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && /^[a-z]+_[0-9A-Za-z]{1,64}$/.test(id);
}
