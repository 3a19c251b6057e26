// Today's decree (Gardeners): the day's cards, the 36 tiles to arrange on the 6x6 garden, Check, Hint.
import { GameMode } from "../../gen/gardens/v1/gardeners_pb.js";
import { HintStatus, MoveRules } from "../../gen/gardens/v1/hints_pb.js";
import { AnswerOutcome, PuzzleDifficulty, PuzzleGame } from "../../gen/gardens/v1/puzzles_pb.js";
import { CardStatus, MoveKind } from "../../gen/gardens/v1/gardeners_pb.js";
import { Code, ConnectError } from "@connectrpc/connect";
import { GENERATE, QUICK, SOLVE } from "../api.js";
import { busy, errorBox, h } from "../dom.js";
import { board, cardLine, tileSvg, describe } from "../tiles.js";

const DIFFICULTIES = { easy: PuzzleDifficulty.EASY, medium: PuzzleDifficulty.MEDIUM, hard: PuzzleDifficulty.HARD };
const STATUS_WORDS = { [CardStatus.SATISFIED]: ["satisfied", "✓ met"], [CardStatus.VIOLATED]: ["violated", "✗ broken"],
  [CardStatus.OPEN]: ["open", "… still open"] };

/** The player's calendar date where the browser is, as YYYY-MM-DD (not toISOString(): that is UTC's date). */
export function localDate(now = new Date()) {
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** GetDailyPuzzle refused the player's date (outside the days the server serves), said in words. */
function notServed(err, date) {
  const e = ConnectError.from(err);
  const why = e.code === Code.FailedPrecondition
    ? "The server does not publish it yet: that date is ahead of the days it serves "
      + "(by default UTC's yesterday to tomorrow, which holds every time zone's today)."
    : "That date is before the days the server serves, and it kept no decree of it.";
  return h("div", { class: "error", "data-testid": "error", "data-date": date },
    h("strong", {}, `No decree for ${date}, today's date on this computer. `), why,
    h("ul", {}, h("li", {}, "Are this computer's date and time zone right?"), h("li", {}, `The server says: ${e.rawMessage}`)));
}

export const gardenersDecree = {
  id: "decree",
  title: "Today's decree",
  game: PuzzleGame.GARDENERS,
  async mount(root, api, shared) {
    const params = new URLSearchParams(location.search);
    let difficulty = params.get("difficulty") in DIFFICULTIES ? params.get("difficulty") : "easy";
    let variant = params.get("variant") === "impossible" ? "impossible" : "decree";
    const area = h("div");
    const diffSelect = h("select", { "data-testid": "difficulty", onchange: () => { difficulty = diffSelect.value; load(); } },
      Object.keys(DIFFICULTIES).map((d) => h("option", { value: d, selected: d === difficulty }, d)));
    const variantSelect = h("select", { "data-testid": "variant", onchange: () => { variant = variantSelect.value; load(); } },
      [["decree", "decree"], ["impossible", "impossible decree"]].map(([v, n]) => h("option", { value: v, selected: v === variant }, n)));
    root.replaceChildren(h("div", { class: "toolbar" }, h("label", {}, "Puzzle ", variantSelect), h("label", {}, "Difficulty ", diffSelect)), area);

    async function load() {
      // The player's today, not the server's (UTC): the server serves yesterday..tomorrow for every time zone.
      const date = localDate();
      await busy(null, area, `Asking the server for the puzzle of ${date} (the first request of the day generates it)…`, async () => {
        // A date the server does not serve is said as such (FAILED_PRECONDITION ahead, NOT_FOUND before).
        const refused = (err) => [Code.FailedPrecondition, Code.NotFound].includes(ConnectError.from(err).code);
        const [puzzle, tiles, cards] = await Promise.all([
          api.puzzles.getDailyPuzzle({ game: PuzzleGame.GARDENERS, variant, difficulty: DIFFICULTIES[difficulty], date }, GENERATE)
            .catch((err) => { if (refused(err)) return { notServed: err }; throw err; }),
          shared.tiles(), shared.cards()]);
        if (puzzle.notServed) return area.replaceChildren(notServed(puzzle.notServed, date));
        const decree = puzzle.content.case === "gardenersDecree" ? puzzle.content.value : null;
        if (!decree) throw new Error(`puzzle ${puzzle.id} is not a Gardeners decree`);
        (variant === "impossible" ? impossible : play)(area, api, puzzle, decree, tiles, cards);
      });
    }
    await load();
  },
};

function header(puzzle, decree, cards) {
  const grade = decree.grade ? ` · graded ${decree.grade.score.toFixed(1)}` : "";
  return [
    h("h2", { "data-testid": "puzzle-id", "data-puzzle": puzzle.id }, `Decree of ${puzzle.date}`,
      h("small", {}, ` (${puzzle.id}${grade})`)),
    h("p", {}, "His Majesty decrees that the garden shall meet every one of these cards:"),
    h("ul", { class: "cards", "data-testid": "decree-cards" }, decree.cardIds.map((id) => cardLine(cards.get(id) || { id, kind: "?", text: "" }))),
  ];
}

/** The decree proper: arrange every tile, then Check (CheckAnswer) and Hint (HintService.GetHint). */
function play(area, api, puzzle, decree, tiles, cards) {
  const size = decree.size || 6;
  const saved = `gardens:${puzzle.id}`;
  const garden = new Map(JSON.parse(localStorage.getItem(saved) || "[]"));  // "r,c" -> {tile, rotation}
  let selected = null;                 // {tray: id} or {cell: "r,c"}
  let marks = new Map();               // "r,c" -> ["bad"] / ["hint"]
  let hintLevel = 0;

  const boardBox = h("div");
  const tray = h("div", { class: "tray", "data-testid": "tray" });
  const result = h("div", { "data-testid": "decree-result" });
  const hintBox = h("div", { "data-testid": "hint" });
  const rotateBtn = h("button", { class: "plain", "data-testid": "rotate", onclick: () => rotate() }, "Rotate ⟳");
  const backBtn = h("button", { class: "plain", "data-testid": "to-tray", onclick: () => toTray() }, "Back to the tray");
  const clearBtn = h("button", { class: "plain", onclick: () => { garden.clear(); changed(); } }, "Clear the garden");
  const checkBtn = h("button", { class: "action", "data-testid": "check", onclick: () => check() }, "Check");
  const hintBtn = h("button", { class: "plain", "data-testid": "hint-button", onclick: () => hint() }, "Hint");
  const count = h("span", { "data-testid": "count" });

  const placements = () => [...garden].map(([k, v]) => {
    const [row, col] = k.split(",").map(Number);
    return { tile: v.tile, row, col, rotation: v.rotation };
  });

  function changed() {
    marks = new Map();
    hintLevel = 0;
    hintBox.replaceChildren();
    localStorage.setItem(saved, JSON.stringify([...garden]));
    draw();
  }

  function draw() {
    const m = new Map([...marks].map(([k, v]) => [k, [...v]]));
    if (selected?.cell) m.set(selected.cell, [...(m.get(selected.cell) || []), "selected"]);
    boardBox.replaceChildren(board(size, placements(), tiles, { onCell: clickCell, onDrop: drop, marks: m, testid: "garden" }));
    const used = new Set([...garden.values()].map((v) => v.tile));
    tray.replaceChildren(...[...tiles.values()].filter((t) => !used.has(t.id)).map((t) =>
      h("button", { class: `tray-tile${selected?.tray === t.id ? " selected" : ""}`, "data-tile": t.id, draggable: "true",
        ondragstart: (e) => e.dataTransfer.setData("text/plain", `tray:${t.id}`),
        "aria-label": describe(t), onclick: () => { selected = selected?.tray === t.id ? null : { tray: t.id }; draw(); } },
        tileSvg(t))));
    count.textContent = `${garden.size} of ${size * size} cells planted`;
    rotateBtn.disabled = backBtn.disabled = !selected?.cell;
  }

  function clickCell(r, c) {
    const key = `${r},${c}`;
    if (selected?.tray) {
      // A tile already there goes back to the tray (the tray shows every tile not in the garden).
      garden.set(key, { tile: selected.tray, rotation: 0 });
      selected = { cell: key };
      return changed();
    }
    if (selected?.cell) {
      if (selected.cell === key) { selected = null; return draw(); }
      const a = garden.get(selected.cell), b = garden.get(key);    // move or swap
      garden.delete(selected.cell); garden.delete(key);
      if (a) garden.set(key, a);
      if (b) garden.set(selected.cell, b);
      selected = { cell: key };
      return changed();
    }
    if (garden.has(key)) { selected = { cell: key }; draw(); }
  }

  // Drag and drop does what the two clicks do: pick up (tray tile or planted tile), put down.
  function drop(source, r, c) {
    const [from, what] = [source.slice(0, 5), source.slice(5)];
    if (from === "tray:" && tiles.has(what)) selected = { tray: what };
    else if (from === "cell:" && garden.has(what)) selected = what === `${r},${c}` ? null : { cell: what };
    else return;
    if (selected) clickCell(r, c);
  }

  function rotate() {
    const t = selected?.cell && garden.get(selected.cell);
    if (t) { t.rotation = (t.rotation + 1) % 4; changed(); }
  }

  function toTray() {
    if (selected?.cell) { garden.delete(selected.cell); selected = null; changed(); }
  }

  function markCells(cells, cls) {
    for (const c of cells) {
      const k = `${c.row},${c.col}`;
      marks.set(k, [...(marks.get(k) || []), cls]);
    }
  }

  async function check() {
    await busy(checkBtn, result, "The King's inspector walks the garden…", async () => {
      const r = await api.puzzles.checkAnswer({ puzzleId: puzzle.id, answer: { case: "garden", value: { size, placements: placements() } } }, QUICK);
      marks = new Map();
      for (const v of r.verdicts) if (v.status === CardStatus.VIOLATED) markCells(v.cells, "bad");
      draw();
      const verdicts = h("ul", { class: "verdicts" }, r.verdicts.map((v) => {
        const [cls, words] = STATUS_WORDS[v.status] || ["open", "?"];
        return h("li", { class: `status-${cls}`, "data-card": v.cardId, "data-status": cls }, h("strong", {}, `${v.cardId} `), words,
          v.reason ? ` — ${v.reason}` : "");
      }));
      const head = r.correct
        ? h("p", { class: "thrilled", "data-testid": "thrilled" }, "His Majesty is thrilled!")
        : r.outcome === AnswerOutcome.INCOMPLETE
          ? h("p", { class: "notice", "data-testid": "incomplete" }, `The garden is not finished: ${garden.size} of ${size * size} cells are planted.`)
          : h("p", { class: "angry", "data-testid": "angry" }, "His Majesty is angry! The cells of the broken cards are outlined in red.");
      result.replaceChildren(head, verdicts);
    });
  }

  async function hint() {
    hintLevel = Math.min(3, hintLevel + 1);
    await busy(hintBtn, hintBox, `Asking the head gardener (hint level ${hintLevel})…`, async () => {
      const r = await api.hints.getHint({ garden: { size, placements: placements() }, cardIds: decree.cardIds,
        mode: GameMode.SOLO, level: hintLevel, rules: MoveRules.SOLO }, SOLVE);
      marks = new Map([...marks].filter(([, v]) => !v.includes("hint")));
      if (r.cells.length) markCells(r.cells, "hint");
      draw();
      const more = r.status === HintStatus.MOVE && hintLevel < 3 ? " Press Hint again for more." : "";
      const apply = r.status === HintStatus.MOVE && r.move && hintLevel === 3
        ? h("button", { class: "plain", "data-testid": "apply-hint", onclick: () => applyMove(r.move) }, "Do it") : null;
      hintBox.replaceChildren(h("p", { class: "notice" }, `Hint (level ${r.level || hintLevel}): ${r.text}${more} `, apply));
    });
  }

  function applyMove(m) {
    const key = `${m.cell?.row},${m.cell?.col}`;
    if (m.kind === MoveKind.ADD) garden.set(key, { tile: m.tile, rotation: m.rotation });
    else if (m.kind === MoveKind.REMOVE) garden.delete(key);
    else if (m.kind === MoveKind.ROTATE && garden.has(key)) garden.get(key).rotation = m.rotation;
    else if (m.kind === MoveKind.SWAP) {
      const other = `${m.other?.row},${m.other?.col}`;
      const a = garden.get(key), b = garden.get(other);
      garden.delete(key); garden.delete(other);
      if (a) garden.set(other, a);
      if (b) garden.set(key, b);
    }
    selected = null;
    changed();
  }

  draw();
  document.onkeydown = (e) => {   // R turns the selected tile, Delete/Backspace sends it back to the tray
    if (!area.isConnected || /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
    if (e.key === "r" || e.key === "R") rotate();
    else if (e.key === "Delete" || e.key === "Backspace") toTray();
  };
  area.replaceChildren(...header(puzzle, decree, cards),
    h("p", {}, "Click a tile in the tray, then a cell of the garden (or drag it there). Click a planted tile to select it: rotate it (R), move it (click another cell, or drag it), or send it back (Delete)."),
    h("div", { class: "columns" },
      h("section", {}, boardBox, h("div", { class: "toolbar" }, rotateBtn, backBtn, clearBtn), count),
      h("section", { class: "side" }, h("h3", {}, "The tray"), tray,
        h("div", { class: "toolbar" }, checkBtn, hintBtn), hintBox, result)));
}

/** An impossible decree: the cards cannot all hold; the player names the fewest to discard (CheckAnswer). */
function impossible(area, api, puzzle, decree, tiles, cards) {
  const chosen = new Set();
  const result = h("div", { "data-testid": "decree-result" });
  const btn = h("button", { class: "action", "data-testid": "discard-button", onclick: () => send() }, "Discard these cards");
  const list = h("ul", { class: "cards" }, decree.cardIds.map((id) => {
    const box = h("input", { type: "checkbox", "data-card": id, onchange: () => (box.checked ? chosen.add(id) : chosen.delete(id)) });
    return cardLine(cards.get(id) || { id, kind: "?", text: "" }, box);
  }));
  async function send() {
    await busy(btn, result, "His Majesty considers…", async () => {
      const r = await api.puzzles.checkAnswer({ puzzleId: puzzle.id, answer: { case: "discard", value: { cardIds: [...chosen] } } }, QUICK);
      const words = { [AnswerOutcome.CORRECT]: "His Majesty is thrilled!", [AnswerOutcome.NOT_MINIMAL]: "That works, but you discard more cards than needed.",
        [AnswerOutcome.BELOW_OPTIMUM]: "That works, but fewer cards would do: each discarded card after the first costs a point.",
        [AnswerOutcome.WRONG]: "His Majesty is angry! The remaining cards still cannot hold together." };
      // the server's reasons too: the conflicts a wrong discard leaves, the cards a larger one could keep
      result.replaceChildren(h("p", { class: r.correct ? "thrilled" : "angry", "data-testid": r.correct ? "thrilled" : "angry" }, words[r.outcome] || "No verdict."),
        ...(r.violations.length ? [h("ul", { "data-testid": "discard-reasons" }, r.violations.map((v) => h("li", {}, v)))] : []));
    });
  }
  area.replaceChildren(h("h2", { "data-testid": "puzzle-id", "data-puzzle": puzzle.id }, `Impossible decree of ${puzzle.date}`),
    h("p", {}, "These cards cannot all hold together. Which cards must go (as few as possible)?"), list,
    h("div", { class: "toolbar" }, btn), result);
}
