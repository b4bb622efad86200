import { append, type Child } from './h.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * Builds an SVG element, as h() builds HTML ones (createElement would put it in the HTML
 * namespace, where it draws nothing). Attributes are SVG presentation attributes or classes,
 * never `style`, which the dashboard's CSP (`style-src 'self'`) refuses.
 */
export function svg(tag: string, attributes: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  append(element, children);
  return element;
}
