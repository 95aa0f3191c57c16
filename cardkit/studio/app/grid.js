// The grid of every card (issue 59): the deck's data as a table, filtered and sorted in
// the page, each cell edited as the card's detail edits a field (studio.js's fieldInput
// and save: the same request, the same checks, the message at the cell). A card is added
// after the selected one, copied or deleted, and the page's last changes undone, through
// the same guarded request; the server writes only the file the card came from.
"use strict";

const grid = {
  selected: null,  // the number of the selected card
  sort: {column: "#", down: false},
  undo: [],  // this page's changes, the last last: {change, what}
  pending: false,  // a redraw waits while a cell is being typed in
};

function gridWhy(card) {
  // why the page may not change this card ('' when it may)
  if (READ_ONLY) return READ_ONLY;
  if (!TOKEN) return "the studio is read-only";
  if (state.broken) {
    return "the deck does not load as its files are now: mend the problems above, or undo " +
      "the last change";
  }
  return card.edit.why;
}

function gridColumns() {
  // '#', each field as the deck declares them, then what a card has besides
  return ["#", ...Object.keys(state.field_types), "back", "count"];
}

function gridValue(card, column) {
  if (column === "#") return card.number;
  if (column === "back") return card.back_design;
  if (column === "count") return card.count;
  const value = card.fields[column] ?? "";
  if (state.field_types[column] !== "flag") return value;
  return value === "True" ? "yes" : value === "False" ? "no" : value;
}

function gridMatches(card, text) {
  // the filter: 'field=text' looks in that column, any other text in every column
  if (!text) return true;
  const named = text.match(/^\s*([A-Za-z_#]\w*)\s*=\s*(.*)$/);
  const wanted = (named && gridColumns().includes(named[1]) ? named[2] : text).toLowerCase();
  const columns = named && gridColumns().includes(named[1]) ? [named[1]] : gridColumns();
  return columns.some(column => String(gridValue(card, column)).toLowerCase().includes(wanted));
}

function gridOrder(cards) {
  const {column, down} = grid.sort;
  const numeric = column === "#" || column === "count" ||
    ["integer", "number"].includes(state.field_types[column]);
  const sorted = [...cards].sort((a, b) => {
    const x = gridValue(a, column), y = gridValue(b, column);
    const order = numeric ? (Number(x) || 0) - (Number(y) || 0)
      : String(x).localeCompare(String(y), undefined, {numeric: true});
    return order || a.number - b.number;
  });
  return down ? sorted.reverse() : sorted;
}

function gridRanges(numbers) {
  // 1, 2, 3, 7 -> '#1–#3, #7'
  const parts = [];
  for (const n of numbers) {
    const last = parts[parts.length - 1];
    if (last && last[1] === n - 1) last[1] = n; else parts.push([n, n]);
  }
  return parts.map(([a, b]) => a === b ? "#" + a : "#" + a + "–#" + b).join(", ");
}

function drawGrid() {
  if (!state || document.getElementById("grid").hidden) return;
  const table = document.getElementById("grid-table");
  if (table.contains(document.activeElement) &&
      document.activeElement.matches("input, textarea, select")) {
    grid.pending = true;  // being typed in: the redraw waits until the cell is left
    return;
  }
  grid.pending = false;
  const columns = gridColumns();
  // a column of long texts gets room to read them; the others fit their values
  const long = new Set(columns.filter(column => state.cards.some(
    card => String(gridValue(card, column)).length > 24)));
  const head = document.createElement("tr");
  head.append(...columns.map(column => {
    const th = document.createElement("th");
    const button = document.createElement("button");
    button.textContent = column;
    button.addEventListener("click", () => {
      grid.sort = {column, down: grid.sort.column === column && !grid.sort.down};
      drawGrid();
    });
    th.append(button);
    th.dataset.column = column;
    th.setAttribute("aria-sort", grid.sort.column !== column ? "none"
      : grid.sort.down ? "descending" : "ascending");
    return th;
  }));
  table.tHead.replaceChildren(head);

  const text = document.getElementById("grid-filter").value.trim();
  const shown = gridOrder(state.cards.filter(card => gridMatches(card, text)));
  if (!state.cards.some(card => card.number === grid.selected)) grid.selected = null;
  table.tBodies[0].replaceChildren(...shown.map(card => gridRow(card, columns, long)));
  for (const key of notes.keys()) showNote(key);

  const printed = state.cards.reduce((sum, card) => sum + card.count, 0);
  document.getElementById("grid-count").textContent = (shown.length === state.cards.length
    ? state.cards.length + " cards" : shown.length + " of " + state.cards.length + " cards") +
    ", " + printed + " printed";
  // which rows cannot be changed, and why, said once for each reason; and whose cells
  // can be, but not the rows themselves (a workbook's)
  const reasons = new Map();  // why -> [whether the cells are read-only too, numbers]
  for (const card of state.cards) {
    const why = gridWhy(card) || card.edit.rows;
    if (why) reasons.set(why, [Boolean(gridWhy(card)),
                               [...(reasons.get(why)?.[1] || []), card.number]]);
  }
  const note = document.getElementById("grid-read-only");
  note.hidden = reasons.size === 0;
  note.replaceChildren(...[...reasons].map(([why, [cells, numbers]]) => {
    const line = document.createElement("p");
    const every = numbers.length === state.cards.length;
    const rows = every ? "Every row"
      : (numbers.length === 1 ? "Row " : "Rows ") + gridRanges(numbers);
    line.textContent = cells ? rows + (every || numbers.length === 1 ? " is" : " are") +
      " read-only: " + why + "." : rows + ": " + why + ".";
    return line;
  }));
  gridTools();
}

function gridRow(card, columns, long) {
  const row = document.createElement("tr");
  row.dataset.number = card.number;
  const why = gridWhy(card);
  row.classList.toggle("read-only", Boolean(why));
  row.classList.toggle("selected", card.number === grid.selected);
  row.setAttribute("aria-selected", String(card.number === grid.selected));
  if (why) row.title = "Read-only: " + why;
  row.addEventListener("click", () => {
    grid.selected = card.number;
    for (const other of row.parentNode.children) {
      other.classList.toggle("selected", other === row);
      other.setAttribute("aria-selected", String(other === row));
    }
    gridTools();
  });
  row.append(...columns.map(column => {
    const td = document.createElement("td");
    td.classList.toggle("long", long.has(column));
    const value = String(gridValue(card, column));
    if (column === "#") {
      const button = document.createElement("button");
      button.textContent = "#" + card.number;
      button.title = "Select card #" + card.number + " (" + card.where + ")";
      button.addEventListener("dblclick", () => open(card.number));
      td.append(button);
    } else if (!why && (column in state.field_types || column === "count")) {
      td.dataset.key = card.number + "/" + column;
      const input = fieldInput(card, column, notes.get(td.dataset.key)?.edited ?? value);
      if (input.tagName === "TEXTAREA") input.rows = 1;
      input.setAttribute("aria-label", column + " of #" + card.number);
      const note = document.createElement("div");
      note.className = "field-note";
      note.hidden = true;
      td.append(input, note);
    } else {
      td.textContent = value;
    }
    return td;
  }));
  return row;
}

function gridTools() {
  // the row buttons: for the selected card, when the page may change it
  const card = state && state.cards.find(c => c.number === grid.selected);
  const why = card ? gridWhy(card) || card.edit.rows : "select a row first";
  for (const [id, label] of [["grid-add", "Add card after"], ["grid-duplicate", "Duplicate"],
                             ["grid-delete", "Delete"]]) {
    const button = document.getElementById(id);
    button.disabled = Boolean(why);
    button.title = why ? "Read-only: " + why : "";
    button.textContent = label + (card ? " #" + card.number : "");
  }
  const undo = document.getElementById("grid-undo");
  const last = grid.undo[grid.undo.length - 1];
  undo.disabled = !last || !TOKEN;
  undo.textContent = "Undo" + (grid.undo.length > 1 ? " (" + grid.undo.length + ")" : "");
  undo.title = last ? "Undo " + last.what : "nothing to undo";
}

function gridSay(text, problem = false) {
  const said = document.getElementById("grid-said");
  said.textContent = text;
  said.classList.toggle("problem", problem);
}

async function gridAsk(body) {
  // a change of rows, or an undo, through the same guarded request as a field's edit
  const answer = await fetch(asked("/api/edit"), {
    method: "POST", headers: {"Content-Type": "application/json", "X-Cardkit-Token": TOKEN},
    body: JSON.stringify(body)});
  return answer.json();
}

function gridNotSaved(reply, file) {
  // what a change not made comes to, as the page says it
  if (reply.conflict) {
    return "Not saved: " + file + " changed on disk since the page read it; the grid " +
      "shows it as it is now.";
  }
  const p = reply.problem;
  return p ? "Not saved: " + (p.where ? p.where + ": " : "") + p.what + (p.fix ? "; " + p.fix : "")
    : reply.refused || "not saved";
}

async function gridChange(op) {
  const card = state.cards.find(c => c.number === grid.selected);
  if (!card) return;
  const file = card.edit.file.split(/[\\/]/).pop();
  gridSay("saving…");
  const reply = await gridAsk({op, card: card.number,
                               version: state.files[card.edit.file] || ""});
  if (reply.saved) {
    state.files[card.edit.file] = reply.version;
    grid.undo.push({change: reply.change, what: reply.what});
    grid.selected = reply.card;
    notes.clear();  // the cards after it have new numbers: their notes are not theirs
    gridSay({add: "Added a card after #", duplicate: "Copied #", delete: "Deleted #"}[op] +
      card.number + " in " + file + ".");
  } else {
    gridSay(gridNotSaved(reply, file), true);
  }
  await refresh();
}

async function gridUndo() {
  const last = grid.undo.pop();
  if (!last) return;
  gridSay("undoing…");
  const reply = await gridAsk({op: "undo", change: last.change});
  if (reply.saved) {
    notes.clear();
    gridSay("Undone: " + reply.undone + ".");
  } else if (reply.conflict) {
    gridSay("Not undone: the file changed since " + last.what + " (in your editor, or by " +
      "another change): undo it there.", true);
  } else {
    gridSay("Not undone: " + gridNotSaved(reply, "the file").replace(/^Not saved: /, ""),
            true);
  }
  await refresh();
}

document.getElementById("grid-add").addEventListener("click", () => gridChange("add"));
document.getElementById("grid-duplicate").addEventListener("click",
                                                           () => gridChange("duplicate"));
document.getElementById("grid-delete").addEventListener("click", () => gridChange("delete"));
document.getElementById("grid-undo").addEventListener("click", gridUndo);
document.getElementById("grid-filter").addEventListener("input", drawGrid);
document.getElementById("grid-table").addEventListener("focusout", () => {
  setTimeout(() => { if (grid.pending) drawGrid(); });  // after the cell's own change
});
// a field saved here or in a card's detail, or a box moved there, can be undone here
document.addEventListener("cardkit:saved", event => {
  grid.undo.push(event.detail);
  gridTools();
});
document.addEventListener("cardkit:shown", drawGrid);
for (const tab of document.querySelectorAll("nav button")) {
  tab.addEventListener("click", () => {
    document.body.dataset.view = tab.dataset.view;  // the grid has its own filter
    drawGrid();
  });
}
