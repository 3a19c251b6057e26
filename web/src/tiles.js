// Tiles as SVG pictures (background, path stones, trees, flowers, benches with facing, fountains) and gardens as boards.
import { Direction } from "../gen/gardens/v1/common_pb.js";
import { h } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = { green: "#2f8f3a", fuchsia: "#d3318f", orange: "#f08a1c" };
const BACKGROUNDS = { grass: "#9ccc65", soil: "#b98b5e" };
// Degrees clockwise from north, and the edge midpoint of a 100 x 100 tile, per direction.
const ANGLE = { [Direction.NORTH]: 0, [Direction.EAST]: 90, [Direction.SOUTH]: 180, [Direction.WEST]: 270 };
const EDGE = { [Direction.NORTH]: [50, 0], [Direction.EAST]: [100, 50], [Direction.SOUTH]: [50, 100], [Direction.WEST]: [0, 50] };
// Where the elements of a tile stand, by how many there are.
const SPOTS = [[], [[50, 50]], [[30, 32], [70, 68]], [[28, 28], [72, 28], [50, 74]], [[28, 28], [72, 28], [28, 72], [72, 72]]];

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

function tree(colour) {
  const c = COLOURS[colour] || "#2f8f3a";
  return s("g", { class: "tree" },
    s("circle", { r: 15, fill: c, stroke: "#1b3d1e", "stroke-width": 2 }),
    s("circle", { cx: -5, cy: -5, r: 6, fill: "white", opacity: 0.25 }),
    s("circle", { r: 3, fill: "#5d4037" }));
}

function flower(colour) {
  const c = COLOURS[colour] || "#d3318f";
  const petals = [0, 72, 144, 216, 288].map((a) =>
    s("circle", { cx: 8 * Math.sin((a * Math.PI) / 180), cy: -8 * Math.cos((a * Math.PI) / 180), r: 6, fill: c, stroke: "#0003" }));
  return s("g", { class: "flower" }, ...petals, s("circle", { r: 4, fill: "#ffeb3b" }));
}

function bench(facing) {
  // Drawn looking north (the sitter faces up), then turned to its facing: the backrest is behind the sitter.
  return s("g", { class: "bench", transform: `rotate(${ANGLE[facing] ?? 0})` },
    s("rect", { x: -15, y: -6, width: 30, height: 10, rx: 2, fill: "#8d6e63", stroke: "#3e2723", "stroke-width": 1.5 }),
    s("rect", { x: -16, y: 5, width: 32, height: 5, rx: 1, fill: "#4e342e" }),
    s("path", { d: "M -5 -10 L 0 -16 L 5 -10 Z", fill: "#3e2723" }));
}

function fountain() {
  return s("g", { class: "fountain" },
    s("circle", { r: 16, fill: "#90a4ae", stroke: "#455a64", "stroke-width": 2 }),
    s("circle", { r: 11, fill: "#4fc3f7" }),
    s("circle", { r: 3, fill: "white" }));
}

const ELEMENTS = { tree: (e) => tree(e.colour), flower: (e) => flower(e.colour), bench: (e) => bench(e.facing), fountain: () => fountain() };

function pathStones(edges) {
  const g = s("g", { class: "path" });
  for (const d of edges) {
    const [x, y] = EDGE[d];
    for (const t of [0.15, 0.45, 0.75, 0.97]) {
      g.append(s("ellipse", { cx: 50 + (x - 50) * t, cy: 50 + (y - 50) * t, rx: 6, ry: 5, fill: "#f5f5f5", stroke: "#9e9e9e" }));
    }
  }
  return g;
}

/** An SVG picture of `tile` turned `rotation` quarter turns clockwise. */
export function tileSvg(tile, rotation = 0) {
  const inner = s("g", { transform: `rotate(${90 * rotation} 50 50)` },
    s("rect", { width: 100, height: 100, fill: BACKGROUNDS[tile.background] || "#ccc" }),
    pathStones(tile.pathEdges));
  const spots = SPOTS[Math.min(tile.elements.length, 4)];
  tile.elements.slice(0, 4).forEach((e, i) => {
    const draw = ELEMENTS[e.kind];
    const g = s("g", { transform: `translate(${spots[i][0]} ${spots[i][1]})` },
      draw ? draw(e) : s("text", { "text-anchor": "middle", "font-size": 12 }, e.kind));
    inner.append(g);
  });
  const title = s("title", {}, describe(tile, rotation));
  return s("svg", { viewBox: "0 0 100 100", role: "img", "aria-label": describe(tile, rotation) }, title, inner,
    s("text", { x: 4, y: 96, "font-size": 13, fill: "#0008" }, tile.id));
}

export function describe(tile, rotation = 0) {
  const things = tile.elements.map((e) => [e.colour, e.kind].filter(Boolean).join(" ")).join(", ") || "nothing";
  const path = tile.pathEdges.length ? `, path` : "";
  return `${tile.id}: ${tile.background}, ${things}${path}${rotation ? `, turned ${90 * rotation}°` : ""}`;
}

/**
 * A size x size board. `placements` are {tile, row, col, rotation}; `tiles` maps id -> Tile.
 * `onCell(row, col)` makes the cells clickable; `marks` maps "r,c" -> class ("bad", "hint", "selected").
 * `onDrop(source, row, col)` makes planted cells draggable and every cell a drop target; `source` is
 * the dragged "tray:<tile id>" or "cell:<row>,<col>".
 */
export function board(size, placements, tiles, { onCell, onDrop, marks = new Map(), small = false, testid } = {}) {
  const at = new Map(placements.map((p) => [`${p.row},${p.col}`, p]));
  const grid = h("div", { class: `board${small ? " small" : ""}`, "data-testid": testid });
  grid.style.gridTemplateColumns = `repeat(${size}, auto)`;
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const p = at.get(`${r},${c}`);
      const cls = ["cell", ...(marks.get(`${r},${c}`) || [])].join(" ");
      const cell = h(onCell ? "button" : "div", {
        class: cls, "data-row": r, "data-col": c, "data-tile": p?.tile, "data-rotation": p ? p.rotation : undefined,
        "aria-label": p ? `row ${r + 1}, column ${c + 1}: ${describe(tiles.get(p.tile) || { id: p.tile, elements: [], pathEdges: [] }, p.rotation)}` : `row ${r + 1}, column ${c + 1}: empty`,
        onclick: onCell ? () => onCell(r, c) : undefined,
        draggable: onDrop && p ? "true" : undefined,
        ondragstart: onDrop && p ? (e) => e.dataTransfer.setData("text/plain", `cell:${r},${c}`) : undefined,
        ondragover: onDrop ? (e) => e.preventDefault() : undefined,
        ondrop: onDrop ? (e) => { e.preventDefault(); onDrop(e.dataTransfer.getData("text/plain"), r, c); } : undefined,
      });
      if (p && tiles.get(p.tile)) cell.append(tileSvg(tiles.get(p.tile), p.rotation));
      grid.append(cell);
    }
  }
  return grid;
}

const KIND_ICONS = { proximity: "↔", distance: "⇹", agglomeration: "▦", panorama: "◉", link: "∞", border: "▭", geometry: "◇", path: "⁘" };

/** A card as a list item: id, an icon for its kind, its wording. */
export function cardLine(card, ...extra) {
  return h("li", { "data-card": card.id },
    h("span", { class: "card-id" }, card.id),
    h("span", { class: "kind", title: card.kind }, KIND_ICONS[card.kind] || card.kind.slice(0, 2)),
    h("span", {}, card.text), ...extra);
}
