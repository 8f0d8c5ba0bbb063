// A tiny DOM helper: h("button#end-turn.card.playable", {data: {uid: 3}, onclick}, ...children).
export function h(spec, attrs = {}, ...children) {
  const m = spec.match(/^[a-z0-9]*/i);
  const el = document.createElement(m[0] || "div");
  const classes = [];
  for (const [, kind, name] of spec.slice(m[0].length).matchAll(/([#.])([^#.]+)/g)) {
    if (kind === "#") el.id = name;
    else classes.push(name);
  }
  if (classes.length) el.className = classes.join(" ");
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "data") for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = String(dv);
    else if (k === "class") el.className += (el.className ? " " : "") + v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}
