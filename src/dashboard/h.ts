/** What h() takes as children: nodes, text, and nothing (skipped), nested in arrays. */
export type Child = Node | string | number | null | undefined | false | Child[];

type Props = Record<string, string | number | boolean | EventListener | null | undefined>;

/**
 * Builds an element: attributes from `props` (`on…` functions become listeners, `false`/null
 * attributes are left out), then the children. Text is always a text node, never parsed as HTML.
 */
export function h(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'value' && 'value' in element) (element as HTMLInputElement).value = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children as h() does: text as text nodes, nothing skipped, arrays flattened. */
export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}
