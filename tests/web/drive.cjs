// Drives the page in Debian's headless Chromium (playwright-core from web/node_modules) for tests/web/test_browser.py.
// Usage: node drive.cjs <page url> <artifacts dir> <an address where nothing listens> <the page's time zone>.
// Prints JSON lines; reads the decree's solution as one JSON line on stdin.
const path = require("node:path");
const readline = require("node:readline");
const { chromium } = require(path.resolve(__dirname, "../../web/node_modules/playwright-core"));

const [url, artifacts, deadApi, timezoneId] = process.argv.slice(2);
const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, name), fullPage: true });

async function workshop(page) {
  await page.waitForSelector('[data-testid="card-list"] input[data-card="S04"]', { timeout: 30_000 });
  await page.check('input[data-card="S04"]');
  await page.check('input[data-card="S08"]');
  await page.click('[data-testid="check-solvable"]');
  await page.waitForSelector('[data-testid="workshop-result"] [data-testid="verdict"]', { timeout: 60_000 });
  const result = {
    verdict: await page.textContent('[data-testid="verdict"]'),
    conflicts: await page.$$eval('[data-testid="conflict"]', (els) => els.map((e) => e.textContent)),
    discard: await page.textContent('[data-testid="discard"]'),
    // every conflict and every discard proven: no "may be incomplete" note
    notes: await page.$$eval('[data-testid="conflicts-incomplete"], [data-testid="discard-incomplete"]', (els) => els.length),
  };
  await shot(page, "workshop-conflict.png");
  // Too many cards: the server refuses with INVALID_ARGUMENT and a field violation; the page says so.
  for (let i = 1; i <= 13; i++) await page.check(`input[data-card="S${String(i).padStart(2, "0")}"]`);
  await page.click('[data-testid="check-solvable"]');
  await page.waitForSelector('[data-testid="workshop-result"] [data-testid="error"]', { timeout: 30_000 });
  result.error = await page.textContent('[data-testid="error"]');
  await shot(page, "workshop-error.png");
  // One card alone is solvable: the witness garden is drawn, tile by tile.
  await page.click('[data-testid="clear"]');
  await page.check('input[data-card="S08"]');
  await page.click('[data-testid="check-solvable"]');
  await page.waitForSelector('[data-testid="workshop-result"] [data-testid="witness"]', { timeout: 60_000 });
  result.solvable = await page.textContent('[data-testid="verdict"]');
  result.witnessTiles = await page.$$eval('[data-testid="witness"] [data-tile] svg', (els) => els.length);
  await shot(page, "workshop-witness.png");
  // Nine cards (Beginner): the server searches one conflict only and cannot vouch for the discards; the page says so.
  await page.click('[data-testid="clear"]');
  await page.selectOption('[data-testid="mode"]', { label: "Beginner" });
  for (const id of ["S59", "S02", "S49", "S34", "S20", "S42", "S06", "S45", "S17"]) await page.check(`input[data-card="${id}"]`);
  await page.click('[data-testid="check-solvable"]');
  await page.waitForSelector('[data-testid="workshop-result"] [data-testid="verdict"]', { timeout: 60_000 });
  const text = (id) => page.$eval(`[data-testid="workshop-result"] [data-testid="${id}"]`, (e) => e.textContent).catch(() => null);
  result.many = { verdict: await text("verdict"), discard: await text("discard"),
    conflictsIncomplete: await text("conflicts-incomplete"), discardIncomplete: await text("discard-incomplete") };
  await shot(page, "workshop-many.png");
  return result;
}

async function decree(page) {
  await page.click('[data-testid="tab-decree"]');
  const heading = await page.waitForSelector('[data-testid="puzzle-id"]', { timeout: 150_000 });
  const puzzle = await heading.getAttribute("data-puzzle");
  say({ puzzle });
  const { placements, swap } = JSON.parse((await lines.next()).value);
  const result = { puzzle, heading: await heading.textContent() };

  // Every sixth tile is dragged and turned with the R key; the others are clicked and turned with the button.
  let n = 0;
  const turns = [];
  const place = async (p) => {
    const cell = `[data-testid="garden"] [data-row="${p.row}"][data-col="${p.col}"]`;
    if (n++ % 6 === 0) {
      await page.dragAndDrop(`[data-testid="tray"] [data-tile="${p.tile}"]`, cell);
      for (let r = 0; r < p.rotation; r++) await page.keyboard.press("r");
    } else {
      await page.click(`[data-testid="tray"] [data-tile="${p.tile}"]`);
      await page.click(cell);
      for (let r = 0; r < p.rotation; r++) await page.click('[data-testid="rotate"]');
    }
    if (n <= 2) {  // the first two tiles make one full extra turn, a quarter at a time (key, then button)
      for (let q = 1; q <= 4; q++) {
        await (n === 1 ? page.keyboard.press("r") : page.click('[data-testid="rotate"]'));
        turns.push([p.tile, (p.rotation + q) % 4, Number(await page.getAttribute(cell, "data-rotation"))]);
      }
    }
    await page.click(cell);  // deselect
  };
  // Half a garden first: the server calls it unfinished, and a hint is given.
  const half = placements.slice(0, 18);
  for (const p of half) await place(p);
  await page.click('[data-testid="check"]');
  await page.waitForSelector('[data-testid="decree-result"] [data-testid="incomplete"]', { timeout: 30_000 });
  result.incomplete = await page.textContent('[data-testid="incomplete"]');
  await page.click('[data-testid="hint-button"]');
  await page.waitForSelector('[data-testid="hint"] .notice', { timeout: 60_000 });
  result.hint = await page.textContent('[data-testid="hint"]');

  for (const p of placements.slice(18)) await place(p);
  result.planted = await page.$$eval('[data-testid="garden"] [data-tile]', (els) =>
    els.map((e) => ({ tile: e.dataset.tile, row: +e.dataset.row, col: +e.dataset.col, rotation: +e.dataset.rotation })));
  // Exchange two tiles (click one, click the other), Check: angry, broken cells outlined. Exchange back.
  const at = ([r, c]) => `[data-testid="garden"] [data-row="${r}"][data-col="${c}"]`;
  const exchange = async () => {
    await page.click(at(swap[0]));
    await page.click(at(swap[1]));
    await page.click(at(swap[1]));  // deselect
  };
  if (swap) {  // null when no exchange breaks a card of the day
    await exchange();
    await page.click('[data-testid="check"]');
    await page.waitForSelector('[data-testid="decree-result"] [data-testid="angry"]', { timeout: 30_000 });
    result.angry = await page.textContent('[data-testid="angry"]');
    result.outlined = await page.$$eval('[data-testid="garden"] .cell.bad', (els) => els.map((e) => [+e.dataset.row, +e.dataset.col]));
    await shot(page, "decree-angry.png");
    await exchange();
  }
  await page.click('[data-testid="check"]');
  await page.waitForSelector('[data-testid="decree-result"] [data-testid="thrilled"]', { timeout: 30_000 });
  result.thrilled = await page.textContent('[data-testid="thrilled"]');
  result.turns = turns;
  result.verdicts = await page.$$eval('[data-testid="decree-result"] li[data-card]', (els) =>
    els.map((e) => [e.dataset.card, e.dataset.status]));
  await shot(page, "decree-thrilled.png");
  return result;
}

// Today's easy impossible decree on a page of its own: the test reads the stored answer and sends three discards
// (one leaving the conflict, one larger than needed, the fewest; null to skip); the page shows each verdict and the
// server's reasons under it.
async function impossibleDecree(browser, url, timezoneId, errors) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 }, timezoneId });
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${url}?view=decree&variant=impossible`);
  const heading = await page.waitForSelector('[data-testid="view-decree"] [data-testid="puzzle-id"]', { timeout: 150_000 });
  const puzzle = await heading.getAttribute("data-puzzle");
  say({ impossible: puzzle });
  const tries = JSON.parse((await lines.next()).value);
  const result = { puzzle, heading: await heading.textContent() };
  for (const [name, ids, verdict] of [["wrong", tries.wrong, "angry"], ["notMinimal", tries.notMinimal, "angry"],
    ["right", tries.right, "thrilled"]]) {
    if (!ids) continue;
    for (const box of await page.$$('[data-testid="view-decree"] input[data-card]')) {
      const want = ids.includes(await box.getAttribute("data-card"));
      if (want !== await box.isChecked()) await box.click();
    }
    // (the result is replaced when the answer comes: wait until it names this try's verdict, not the last one's)
    await page.evaluate(() => document.querySelector('[data-testid="decree-result"]').replaceChildren());
    await page.click('[data-testid="discard-button"]');
    await page.waitForSelector(`[data-testid="decree-result"] [data-testid="${verdict}"]`, { timeout: 60_000 });
    result[name] = {
      verdict: await page.textContent(`[data-testid="decree-result"] [data-testid="${verdict}"]`),
      reasons: await page.$$eval('[data-testid="discard-reasons"] li', (els) => els.map((e) => e.textContent)),
    };
    await shot(page, `impossible-${name}.png`);
  }
  await page.close();
  return result;
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
  const errors = [];
  let page = null;
  try {
    // The player's time zone: the test picks one whose date is not UTC's, the decree must be of the local date.
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, timezoneId });
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(url);
    const w = await workshop(page);
    const d = await decree(page);
    const i = await impossibleDecree(browser, url, timezoneId, errors);
    // No server behind the address: the page says so in words instead of staying blank.
    const lost = await browser.newPage({ viewport: { width: 1000, height: 400 } });
    await lost.goto(`${url}?api=${encodeURIComponent(deadApi)}`);
    await lost.waitForSelector('[data-testid="error"]', { timeout: 30_000 });
    const unreachable = await lost.textContent('[data-testid="error"]');
    await shot(lost, "unreachable.png");
    // A computer whose clock is 10 days ahead (or behind): the server refuses that date and the page says why.
    const refused = {};
    for (const [name, days] of [["ahead", 10], ["behind", -10]]) {
      const other = await browser.newPage({ viewport: { width: 1000, height: 500 }, timezoneId: "UTC" });
      other.on("pageerror", (e) => errors.push(String(e)));
      await other.clock.setFixedTime(new Date(Date.now() + days * 86_400_000));
      await other.goto(`${url}?view=decree`);
      const box = await other.waitForSelector('[data-testid="view-decree"] :is([data-testid="error"], [data-testid="puzzle-id"])',
        { timeout: 150_000 });   // a decree shown instead of the refusal is the test's to report
      refused[name] = { date: await box.getAttribute("data-date"), text: await box.textContent() };
      await shot(other, `decree-${name}.png`);
    }
    say({ workshop: w, decree: d, impossible: i, unreachable, refused, pageErrors: errors });
  } catch (e) {
    // The page as it stood when a step failed, for the CI log reader; and what the page itself threw.
    if (page) await shot(page, "failure.png").catch(() => {});
    console.error("page errors:", errors);
    throw e;
  } finally {
    await browser.close();
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
