/** Whether `text` takes more than `limit` bytes as UTF-8, counted without encoding a copy. */
export function utf8LengthExceeds(text: string, limit: number): boolean {
  // UTF-8 takes at least one byte per UTF-16 unit and at most three.
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is 4 bytes over 2 units: 2 per unit.
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? 2 : 3;
    if (bytes > limit) return true;
  }
  return false;
}
