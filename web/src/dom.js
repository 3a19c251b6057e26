// Small DOM helpers shared by the views.
import { explain } from "./api.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** An error box for `err` (a server error or any exception): never a blank page. */
export function errorBox(err) {
  const { title, lines } = explain(err);
  return h("div", { class: "error", "data-testid": "error" }, h("strong", {}, title),
    lines.length ? h("ul", {}, lines.map((l) => h("li", {}, l))) : null);
}

/** Runs `work` with `button` disabled and a busy note in `out`; errors land in `out` in plain words. */
export async function busy(button, out, note, work) {
  if (button) button.disabled = true;
  out.replaceChildren(h("p", { class: "busy" }, note));
  try {
    await work();
  } catch (err) {
    console.error(err);
    out.replaceChildren(errorBox(err));
  } finally {
    if (button) button.disabled = false;
  }
}
