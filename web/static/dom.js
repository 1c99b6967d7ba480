// Small DOM helpers shared by the pages.

/** An element with attributes (`dataset`, `on*` handlers as functions, others as attributes) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'className') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'style') node.style.cssText = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Show `message` in the page's error area (empty hides it). */
export function showError(message) {
  const area = document.getElementById('error');
  if (!area) return;
  area.textContent = message || '';
  area.hidden = !message;
}

export function when(ms) {
  return new Date(ms).toLocaleString();
}
