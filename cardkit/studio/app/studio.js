// The studio's page: the contact sheet of the deck, kept up to date by the server's
// events. A card's image is named by what it looks like, so after a save only the cards
// whose look changed get a new src (and are fetched again). The page's options (ink,
// bleed, variant, language) are its own: they live in its address (?lang=de&bleed=1) and
// go with each request, so another tab keeps its own.
"use strict";

const sheet = document.getElementById("sheet");
const figures = new Map();  // card number -> its figure
let state = null;
let chosen = null;  // the card numbers the filter shows (null: all)

function image(key) { return "/cards/" + key + ".png"; }

function asked(path, more = {}) {
  // path with this page's options and `more` in its query
  const query = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(more)) query.set(name, value);
  return path + (String(query) ? "?" + query : "");
}

function show(next) {
  state = next;
  document.getElementById("title").textContent = next.title || "cardkit studio";
  document.title = (next.title || "cardkit") + " · studio";
  const seen = new Set();
  for (const card of next.cards) {
    seen.add(card.number);
    let figure = figures.get(card.number);
    if (!figure) {
      figure = document.createElement("figure");
      figure.dataset.number = card.number;
      figure.append(document.createElement("img"), document.createElement("figcaption"));
      figure.addEventListener("click", () => open(Number(figure.dataset.number)));
      figures.set(card.number, figure);
    }
    const img = figure.querySelector("img");
    if (img.dataset.key !== card.front) {  // only a card whose look changed is fetched
      img.dataset.key = card.front;
      img.src = image(card.front);
    }
    img.alt = card.name;
    figure.classList.toggle("found", card.found.length > 0);
    figure.querySelector("figcaption").textContent =
      "#" + card.number + " " + card.name + (card.count > 1 ? " ×" + card.count : "");
    sheet.append(figure);  // in the deck's order
  }
  for (const [number, figure] of figures) {
    if (!seen.has(number)) { figure.remove(); figures.delete(number); }
  }
  problems(next);
  toggles(next);
  filter();
  // after a broken save the cards shown are the last good ones: not what the files say
  const stale = next.broken && next.cards.length > 0;
  sheet.classList.toggle("stale", stale);
  document.getElementById("stale").hidden = !stale;
  // no cards at all (a deck broken since it was first drawn): what to do, not a blank page
  const noCards = document.getElementById("no-cards");
  noCards.hidden = next.cards.length > 0;
  noCards.textContent = "No cards to show yet: the deck does not load. Mend the " +
    (next.problems.length === 1 ? "problem" : "problems") + " above and save; its cards " +
    "are drawn as soon as it loads.";
  document.getElementById("status").textContent = !next.broken
    ? "drawn in " + next.seconds.toFixed(2) + " s"
    : stale ? "the last save has problems: the last good cards are shown"
    : "the deck has problems: mend them and save to draw its cards";
  document.dispatchEvent(new Event("cardkit:shown"));  // the grid draws it too (grid.js)
}

function toggles(next) {
  // the header's choices as the studio draws: bleed, draft ink, each variant's option
  document.getElementById("bleed").checked = next.options.bleed;
  document.getElementById("draft").checked = next.options.ink === "draft";
  const box = document.getElementById("variants");
  box.replaceChildren(...Object.entries(next.variants).map(([name, options]) => {
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.name = name;
    select.append(new Option("all " + name, ""), ...options.map(o => new Option(o, o)));
    select.value = next.options.variant[name] || "";
    select.addEventListener("change", choose);
    label.append(name, select);
    return label;
  }));
  // a deck in several languages: which one to draw
  const languages = document.getElementById("languages");
  const select = document.createElement("select");
  select.name = "lang";
  select.append(...next.languages.map((code, i) => new Option(i ? code : code + " (as written)",
                                                              i ? code : "")));
  select.value = next.options.lang || "";
  select.addEventListener("change", choose);
  const label = document.createElement("label");
  label.append("language", select);
  languages.replaceChildren(...(next.languages.length > 1 ? [label] : []));
}

function choose() {
  // the toggles become this page's address: a reload keeps them, another tab has its own
  const query = new URLSearchParams();
  if (document.getElementById("draft").checked) query.set("ink", "draft");
  if (document.getElementById("bleed").checked) query.set("bleed", "1");
  for (const select of document.querySelectorAll("#variants select")) {
    if (select.value) query.set("variant." + select.name, select.value);
  }
  const lang = document.querySelector("#languages select")?.value;
  if (lang) query.set("lang", lang);
  history.replaceState(null, "", String(query) ? "?" + query : location.pathname);
  document.getElementById("status").textContent = "drawing…";
  refresh().then(redrawView);
}
document.getElementById("bleed").addEventListener("change", choose);
document.getElementById("draft").addEventListener("change", choose);

function problems(next) {
  const box = document.getElementById("problems");
  const listed = next.problems.length ? next.problems : next.warnings;
  box.hidden = listed.length === 0;
  box.className = next.problems.length ? "" : "warnings";
  box.replaceChildren(...listed.map(p => {
    const line = document.createElement("p");
    line.textContent = p.where + ": " + p.what + (p.fix ? "; " + p.fix : "");
    return line;
  }));
}

async function filter() {
  const box = document.getElementById("filter");
  const text = box.value.trim();
  let answer = {};
  if (text) answer = await (await fetch(asked("/api/select", {cards: text}))).json();
  if (box.value.trim() !== text) return;  // typed on meanwhile: that answer comes next
  chosen = text ? new Set(answer.numbers || []) : null;
  for (const [number, figure] of figures) figure.hidden = chosen !== null && !chosen.has(number);
  // nothing shown: say so, why, and how to see every card again
  const none = document.getElementById("no-match");
  none.hidden = chosen === null || chosen.size > 0;
  none.querySelector("span").textContent = "No card matches '" + text + "'" +
    (answer.problem ? ": " + answer.problem : ".") + " ";  // the problem is a sentence
}
document.getElementById("show-all").addEventListener("click", () => {
  document.getElementById("filter").value = "";
  filter();
});

function side(card, which) {
  // the side's image, its safe area and a box for each element, named on hovering
  const box = document.getElementById("side-" + which);
  box.querySelector("img").src = image(card[which]);
  const drawn = card.elements[which];
  const found = new Set(card.found.map(f => f.element));
  const layer = box.querySelector(".layer");
  const [bleedX, bleedY] = state.bleed;  // the trim inside the image, in percent
  Object.assign(layer.style, {left: bleedX + "%", right: bleedX + "%", top: bleedY + "%",
                              bottom: bleedY + "%"});
  box.classList.toggle("bled", bleedX > 0);
  const safe = document.createElement("div");
  safe.className = "safe";
  Object.assign(safe.style, {left: drawn.safe[0] + "%", right: drawn.safe[0] + "%",
                             top: drawn.safe[1] + "%", bottom: drawn.safe[1] + "%"});
  layer.replaceChildren(safe, ...drawn.items.map(item => {
    const element = document.createElement("div");
    element.className = "element" + (found.has(item.where) ? " found" : "");
    const [left, top, width, height] = item.box;
    Object.assign(element.style, {left: left + "%", top: top + "%", width: width + "%",
                                  height: height + "%"});
    element.dataset.name = item.name;
    const [x, y, w, h] = item.mm;
    element.title = item.name + " (" + item.kind + ", layout " + drawn.layout + "), " + w +
      " × " + h + " mm at " + x + ", " + y + " mm: " + item.where +
      (item.styles.length ? "; text styles: " + item.styles.join(", ") : "");
    element.addEventListener("mouseenter", () => {
      document.getElementById("hovered").textContent = element.title;
    });
    return element;
  }));
}

// the page may change the deck's files (the server put its token in the page), or why not
const TOKEN = document.querySelector("meta[name='cardkit-token']").content;
const READ_ONLY = document.querySelector("meta[name='cardkit-read-only']").content;
const notes = new Map();  // "card/field" -> what the last edit of that field came to

function fieldInput(card, name, value) {
  // a field as an input of its type: yes or no for a flag, a number, a text with its markup
  // (a card's count: a whole number)
  const kind = name === "count" ? "integer" : state.field_types[name] || "text";
  let input;
  if (kind === "flag") {
    input = document.createElement("select");
    input.append(new Option("yes", "yes"), new Option("no", "no"));
    value = value === "True" ? "yes" : value === "False" ? "no" : value;
  } else if (kind === "text") {
    input = document.createElement("textarea");
    input.rows = Math.min(4, 1 + Math.floor(value.length / 40));
  } else {
    input = document.createElement("input");
    if (kind !== "colour") input.inputMode = kind === "integer" ? "numeric" : "decimal";
  }
  input.name = name;
  input.value = value;
  input.dataset.kind = kind;
  input.addEventListener("change", () => save(card, name, input));
  return input;
}

async function save(card, name, input) {
  // write one field back to the file the card came from; the server's event redraws it
  const key = card.number + "/" + name;
  const edited = input.value;
  notes.set(key, {text: "saving…", kind: ""});
  showNote(key);
  const answer = await fetch(asked("/api/edit"), {
    method: "POST", headers: {"Content-Type": "application/json", "X-Cardkit-Token": TOKEN},
    body: JSON.stringify({card: card.number, field: name, value: edited,
                          version: state.files[card.edit.file] || ""})});
  const reply = await answer.json();
  const file = card.edit.file.split(/[\\/]/).pop();
  if (reply.saved) {
    input.value = edited;
    state.files[card.edit.file] = reply.version;
    notes.set(key, {text: "saved to " + file, kind: "saved"});
    document.dispatchEvent(new CustomEvent("cardkit:saved", {detail: {  // undone in grid.js
      change: reply.change, what: reply.what}}));
  } else if (reply.conflict) {
    notes.set(key, {kind: "problem", conflict: true, text: "Not saved: " + file +
      " changed on disk since the page read it. It now says «" + (reply.now ?? "") +
      "»; your edit was «" + edited + "»."});
    await refresh();  // the data as the file holds it now
  } else if (reply.problem) {
    const p = reply.problem;
    notes.set(key, {kind: "problem", edited, text: (p.where ? p.where + ": " : "") +
                                                     p.what + (p.fix ? "; " + p.fix : "")});
  } else {
    notes.set(key, {kind: "problem", text: reply.refused || "not saved"});
  }
  showNote(key);
}

function showNote(key) {
  // at the field in the card's detail, and at its cell in the grid
  const note = notes.get(key);
  for (const cell of document.querySelectorAll("[data-key='" + key + "'] .field-note")) {
    if (!note) return;
    cell.textContent = note.text;
    cell.className = "field-note " + note.kind;
    cell.hidden = false;
  }
}

function fields(card) {
  // the card's data row as the deck file gives it: inputs where the page may change it
  const why = READ_ONLY || card.edit.why || (TOKEN ? "" : "the studio is read-only");
  const readOnly = document.getElementById("card-read-only");
  readOnly.hidden = !why;
  readOnly.textContent = why ? "Read-only: " + why + "." : "";
  const table = document.getElementById("card-fields");
  if (table.contains(document.activeElement) && table.dataset.number === String(card.number)) {
    return;  // being typed in: a redraw does not take the text away
  }
  table.dataset.number = card.number;
  table.replaceChildren(
    ...Object.entries({...card.fields, back: card.back_design}).map(([name, value]) => {
      const row = document.createElement("tr");
      const th = document.createElement("th"), td = document.createElement("td");
      th.textContent = name;
      if (!why && name in state.field_types) {
        row.dataset.key = card.number + "/" + name;
        const note = document.createElement("div");
        note.hidden = true;
        // a value refused stays in its field, to mend; a conflict shows the file's
        const refused = notes.get(row.dataset.key);
        td.append(fieldInput(card, name, refused?.edited ?? value), note);
        note.className = "field-note";
      } else {
        td.textContent = value;
      }
      row.append(th, td);
      return row;
    }));
  for (const key of notes.keys()) if (key.startsWith(card.number + "/")) showNote(key);
}

function open(number) {
  const card = state.cards.find(c => c.number === number);
  if (!card) return;
  document.getElementById("card-name").textContent = "#" + card.number + " " + card.name;
  document.getElementById("card-where").textContent = card.where;
  fields(card);
  side(card, "front");
  side(card, "back");
  document.getElementById("card-found").replaceChildren(...card.found.map(f => {
    const line = document.createElement("li");
    line.textContent = f.severity + ": " + f.where + ": " + f.what + (f.fix ? "; " + f.fix : "");
    return line;
  }));
  const dialog = document.getElementById("card");
  dialog.dataset.number = number;
  dialog.style.setProperty("--card-width", state.size_mm[0] + "mm");
  dialog.style.setProperty("--card-height", state.size_mm[1] + "mm");
  if (!dialog.open) dialog.showModal();
}

for (const [toggle, shown] of [["true-size", "true"], ["boxes", "boxes"]]) {
  document.getElementById(toggle).addEventListener("change", event => {
    document.getElementById("card").classList.toggle(shown, event.target.checked);
  });
}
document.getElementById("guides").addEventListener("change", event => {
  document.getElementById("card").classList.toggle("guides-off", !event.target.checked);
});
document.getElementById("filter").addEventListener("input", filter);

let drawings = 0;  // the deck asked for: only the latest answer is shown

async function refresh() {
  const drawing = ++drawings;
  const next = await (await fetch(asked("/api/deck"))).json();
  if (drawing !== drawings) return;
  show(next);
  const dialog = document.getElementById("card");
  if (dialog.open) open(Number(dialog.dataset.number));
}

let view = "sheet";

for (const tab of document.querySelectorAll("nav button")) {
  tab.addEventListener("click", () => {
    view = tab.dataset.view;
    for (const other of document.querySelectorAll("nav button")) {
      other.setAttribute("aria-selected", String(other === tab));
    }
    for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== view;
    document.getElementById("paper-choice").hidden = !(view in PAGES);
    redrawView();
  });
}
document.getElementById("paper").addEventListener("change", redrawView);

// the views that show pages the server draws: where it asks, the list, what they are
const PAGES = {
  pages: ["/api/sheets", "page-list", "fronts and backs, as they print"],
  rules: ["/api/rules", "rules-list", "the rulebook"],
  components: ["/api/components", "components-list", "the tuck box, tokens and boards"],
};

async function drawPages(view, paper) {
  const [api, list, what] = PAGES[view];
  const note = document.getElementById(view + "-note");
  note.textContent = "drawing…";
  const answer = await (await fetch(asked(api, {paper}))).json();
  note.textContent = answer.problem || answer.pages.length + " pages on " +
    paper.toUpperCase() + ", " + what;
  document.getElementById(list).replaceChildren(
    ...(answer.pages || []).map((p, i) => {
      const figure = document.createElement("figure");
      const img = new Image();
      img.src = "/sheets/" + p.key + ".png";
      const name = (p.what ? p.what + ", " : "") + "page " + (p.what ? p.page : i + 1);
      img.alt = name;
      const caption = document.createElement("figcaption");
      caption.textContent = name + " (" + p.mm[0] + " × " + p.mm[1] + " mm)";
      figure.append(img, caption);
      return figure;
    }));
}

async function redrawView() {
  // the sheets and the report are drawn when their tab is shown, and again after a save
  if (view in PAGES) {
    await drawPages(view, document.getElementById("paper").value);
  } else if (view === "playtest") {
    document.getElementById("report").src = asked("/playtest");
    // which report it is, and when it was written: it may be older than the last run
    const shown = await (await fetch(asked("/api/playtest"))).json();
    const note = document.getElementById("playtest-note");
    note.hidden = !shown.report;
    note.textContent = shown.report ? "The newest simulation report of this deck: " +
      shown.report + ", written " + shown.written + "." : "";
  }
}

new EventSource("/events").onmessage = async () => { await refresh(); if (view !== "sheet") redrawView(); };
