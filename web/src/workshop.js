// Card workshop: pick cards from the decks, ask the server whether they can hold together (CheckSolvable).
import { Solvability } from "../gen/gardens/v1/common_pb.js";
import { GameMode } from "../gen/gardens/v1/gardeners_pb.js";
import { QUICK, SOLVE } from "./api.js";
import { busy, h } from "./dom.js";
import { board, cardLine } from "./tiles.js";

// The game mode a deck is played in (the rulebook's modes; the server checks the rest).
const DECK_MODES = { "training-a": GameMode.TRAINING_A, "training-b": GameMode.TRAINING_B, "training-c": GameMode.TRAINING_C,
  standard: GameMode.NORMAL, expert: GameMode.NORMAL };
const MODE_NAMES = { [GameMode.TRAINING_A]: "Training A", [GameMode.TRAINING_B]: "Training B", [GameMode.TRAINING_C]: "Training C",
  [GameMode.BEGINNER]: "Beginner", [GameMode.NORMAL]: "Normal", [GameMode.SOLO]: "Solo" };

export const workshop = {
  id: "workshop",
  title: "Card workshop",
  async mount(root, api, shared) {
    const out = h("div", { "data-testid": "workshop-result" });
    root.replaceChildren(h("p", { class: "busy" }, "Fetching the decks…"));
    const [{ cards }, tiles] = await Promise.all([api.gardeners.listCards({}, QUICK), shared.tiles()]);
    const byId = new Map(cards.map((c) => [c.id, c]));
    const decks = [...new Set(cards.map((c) => c.deck))];
    const chosen = new Set();
    let deck = decks.includes("standard") ? "standard" : decks[0];
    let mode = DECK_MODES[deck] ?? GameMode.NORMAL;

    const list = h("ul", { class: "cards", "data-testid": "card-list" });
    const picked = h("p", { "data-testid": "picked" });
    const deckSelect = h("select", { "data-testid": "deck", onchange: () => { deck = deckSelect.value; mode = DECK_MODES[deck] ?? mode; modeSelect.value = mode; drawList(); } },
      decks.map((d) => h("option", { value: d, selected: d === deck }, d)));
    const modeSelect = h("select", { "data-testid": "mode", onchange: () => { mode = Number(modeSelect.value); } },
      Object.entries(MODE_NAMES).map(([v, n]) => h("option", { value: v, selected: Number(v) === mode }, n)));
    const ask = h("button", { class: "action", "data-testid": "check-solvable", onclick: () => check() }, "Can these cards hold together?");
    const clear = h("button", { class: "plain", "data-testid": "clear", onclick: () => { chosen.clear(); drawList(); } }, "Clear");

    function drawPicked() {
      picked.textContent = chosen.size ? `Picked: ${[...chosen].join(", ")}` : "Pick two or more cards.";
    }
    function drawList() {
      list.replaceChildren(...cards.filter((c) => c.deck === deck).map((c) => {
        const box = h("input", { type: "checkbox", "data-card": c.id, checked: chosen.has(c.id),
          onchange: () => { box.checked ? chosen.add(c.id) : chosen.delete(c.id); drawPicked(); } });
        return cardLine(c, box);
      }));
      drawPicked();
    }

    async function check() {
      const cardIds = [...chosen];
      await busy(ask, out, `Asking the server about ${cardIds.join(" + ") || "no cards"}…`, async () => {
        const r = await api.gardeners.checkSolvable({ cardIds, mode }, SOLVE);
        out.replaceChildren(...verdict(r, byId, tiles));
      });
    }

    drawList();
    root.replaceChildren(h("div", { class: "columns" },
      h("section", { class: "panel" }, h("h2", {}, "Cards"),
        h("div", { class: "toolbar" }, h("label", {}, "Deck ", deckSelect), h("label", {}, "Game mode ", modeSelect)),
        list),
      h("section", { class: "panel" }, h("h2", {}, "Will the King's gardeners manage?"), picked,
        h("div", { class: "toolbar" }, ask, clear), out)));
  },
};

function names(ids, byId) {
  return ids.map((id) => h("li", {}, h("strong", {}, id), " — ", byId.get(id)?.text ?? ""));
}

function verdict(r, byId, tiles) {
  switch (r.verdict) {
    case Solvability.SOLVABLE:
      return [h("p", { class: "notice", "data-testid": "verdict" }, "Solvable: here is a garden that meets every card."),
        board(r.witness.size, r.witness.placements, tiles, { small: true, testid: "witness" })];
    case Solvability.UNSOLVABLE: {
      const conflicts = r.conflicts.map((set, i) => h("div", { class: "conflict", "data-testid": "conflict" },
        h("p", {}, h("strong", {}, set.cardIds.join(" + ")), " cannot hold together",
          r.conflicts.length > 1 ? ` (conflict ${i + 1})` : "", ":"),
        h("ul", {}, names(set.cardIds, byId))));
      const discards = r.discardSets.map((set) => set.cardIds.join(" + "));
      // Each list says whether it is complete (proven); past 8 cards the server searches one conflict only.
      return [h("p", { class: "error", "data-testid": "verdict" }, "Unsolvable: no garden meets all of these cards."),
        ...conflicts,
        r.conflictsComplete ? null : h("p", { "data-testid": "conflicts-incomplete" }, "There may be more conflicting sets than these."),
        discards.length ? h("p", { "data-testid": "discard" }, "To make the rest solvable, discard ",
          discards.map((d, i) => [i ? " or " : "", h("strong", {}, d)]).flat(), ".") : null,
        r.discardSetsComplete ? null : h("p", { "data-testid": "discard-incomplete" }, discards.length
          ? "The discards may be incomplete: there may be other cards to discard instead (not every way was proven)."
          : "Which cards to discard is not known: no discard was proven within the search."),
        r.unknownSubsets ? h("p", {}, `${r.unknownSubsets} subsets stayed undecided within the time limit.`) : null]
        .filter(Boolean);
    }
    case Solvability.UNKNOWN:
      return [h("p", { class: "notice", "data-testid": "verdict" },
        "Undecided: the server reached its time limit before it could tell. Try fewer cards.")];
    default:
      return [h("p", { class: "error", "data-testid": "verdict" }, "The server gave no verdict.")];
  }
}
