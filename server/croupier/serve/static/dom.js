// The DOM helpers every page of the server shares (index.html with pages.js and app.js, and
// play.html with play.js), loaded before them. Text is set with textContent only, so nothing a
// bot chose (its name) can become markup.
"use strict";

const $ = (id) => document.getElementById(id);

// An element with attributes ("class", "text" for its text, any other as is) and children
// (strings become text; null and undefined are left out).
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
  }
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}
