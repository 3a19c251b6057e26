// The page: tabs for the workshop and each game's daily, over one set of gRPC-Web clients.
import { apiAddress, connect, QUICK } from "./api.js";
import { dailies } from "./dailies/index.js";
import { errorBox, h } from "./dom.js";
import { workshop } from "./workshop.js";

const views = [workshop, ...dailies];

function once(load) {
  let p = null;
  return () => (p ??= load().catch((e) => { p = null; throw e; }));
}

function showFatal(err) {
  const status = document.getElementById("status");
  status.hidden = false;
  status.replaceChildren(errorBox(err));
}

window.addEventListener("error", (e) => showFatal(e.error || new Error(e.message)));
window.addEventListener("unhandledrejection", (e) => showFatal(e.reason));

async function start() {
  const api = connect(await apiAddress());
  document.getElementById("api-address").textContent = api.baseUrl;
  // Catalog data several views use, fetched once.
  const shared = {
    tiles: once(async () => new Map((await api.gardeners.listTiles({}, QUICK)).tiles.map((t) => [t.id, t]))),
    cards: once(async () => new Map((await api.gardeners.listCards({}, QUICK)).cards.map((c) => [c.id, c]))),
  };
  const tabs = document.getElementById("tabs");
  const view = document.getElementById("view");
  const wanted = new URLSearchParams(location.search).get("view") || location.hash.slice(1);

  async function open(v) {
    for (const b of tabs.children) b.setAttribute("aria-selected", String(b.dataset.view === v.id));
    history.replaceState(null, "", `#${v.id}`);
    document.getElementById("status").hidden = true;
    const root = h("section", { "data-testid": `view-${v.id}` });
    view.replaceChildren(root);
    try {
      await v.mount(root, api, shared);
    } catch (err) {
      console.error(err);
      root.replaceChildren(errorBox(err));
    }
  }
  tabs.replaceChildren(...views.map((v) => h("button", { "data-view": v.id, "data-testid": `tab-${v.id}`, onclick: () => open(v) }, v.title)));
  await open(views.find((v) => v.id === wanted) || views[0]);
}

start().catch(showFatal);
