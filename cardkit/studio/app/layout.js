// Layouts in the card's detail (issue 59). Click an element on the card: the page says
// which layout file and line write it. Drag it, or its corner, to move or resize its box,
// snapped to whole millimetres from the card's top left: on release the new numbers are
// written into the layout's `box:` (the server changes only them), and the card is drawn
// again. "Open in editor" opens the user's editor at a card's row or an element's entry;
// the server picks the file, the user picked the editor. Uses studio.js's state, asked,
// refresh, TOKEN and READ_ONLY; its own names stay inside it (the page's scripts share
// their top-level names).
"use strict";

(() => {
  const EDITOR = document.querySelector("meta[name='cardkit-editor']").content;
  const NO_EDITOR = document.querySelector("meta[name='cardkit-no-editor']").content;
  const MOVED = 3;  // pixels a pointer goes before a click becomes a drag
  let picked = null;  // {number, side, name} of the element clicked
  let boxNote = null;  // {key, text, kind}: what the last box edit came to
  let dragging = null;

  function cardShown() { return Number(document.getElementById("card").dataset.number); }

  function itemOf(number, side, name) {
    const card = state.cards.find(c => c.number === number);
    return card && card.elements[side].items.find(item => item.name === name);
  }

  function trimMm() {
    // the card's width and height in mm without the bleed (the layer the boxes sit on)
    return [0, 1].map(i => state.size_mm[i] * (100 - 2 * state.bleed[i]) / 100);
  }

  function whyFixed(item) {
    // why this element's box cannot be moved here ('' when it can)
    return READ_ONLY || (TOKEN ? "" : "the studio is read-only") ||
      (state.layouts[item.box_file] || {why: "its layout was not read"}).why;
  }

  function elementDiv(side, name) {
    return [...document.querySelectorAll("#side-" + side + " .element")]
      .find(div => div.dataset.name === name);
  }

  function fileName(path) { return path.split(/[\\/]/).pop(); }
  function fileOf(where) { return where.replace(/:\d+(:\d+)?$/, ""); }

  function openButton(target) {
    // an "Open in editor" button for {card} or {card, side, element}, or how to set one
    const span = document.createElement("span");
    if (READ_ONLY || !TOKEN) return span;
    if (!EDITOR) {
      span.className = "no-editor";
      span.textContent = "Open in editor: " + NO_EDITOR + ".";
      return span;
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "open";
    button.textContent = "Open in editor (" + EDITOR + ")";
    const said = document.createElement("span");
    said.className = "opened";
    button.addEventListener("click", async () => {
      const answer = await fetch(asked("/api/open"), {
        method: "POST", headers: {"Content-Type": "application/json", "X-Cardkit-Token": TOKEN},
        body: JSON.stringify(target)});
      const reply = await answer.json();
      said.textContent = reply.opened ? " opened " + reply.opened
        : " " + (reply.refused || (reply.problem && reply.problem.what) || "not opened");
    });
    span.append(button, said);
    return span;
  }

  function showPicked() {
    // mark the element clicked, say where its layout writes it, with its note and links
    for (const div of document.querySelectorAll("#card .element.picked")) {
      div.classList.remove("picked");
      div.replaceChildren();
    }
    const info = document.getElementById("element-info");
    const item = picked && picked.number === cardShown() &&
      itemOf(picked.number, picked.side, picked.name);
    const div = item && elementDiv(picked.side, picked.name);
    if (!div) {
      info.replaceChildren();
      return;
    }
    const why = whyFixed(item);
    div.classList.add("picked");
    div.classList.toggle("movable", !why);
    if (!why) {
      const corner = document.createElement("span");
      corner.className = "corner";
      corner.title = "drag to resize";
      div.append(corner);
    }
    const [x, y, w, h] = item.mm;
    const where = document.createElement("p");
    where.className = "where";
    where.textContent = item.name + " (" + item.kind + ", " + picked.side + "): " + item.where +
      (fileOf(item.box_at) === fileOf(item.where) ? "" : "; its box is written at " +
        item.box_at) +
      ". Box " + x + ", " + y + " mm, " + w + " × " + h + " mm.";
    const how = document.createElement("p");
    how.className = why ? "read-only" : "how";
    how.textContent = why ? "The box cannot be moved here: " + why + "."
      : "Drag the element to move it, its corner to resize it (whole millimetres).";
    const note = document.createElement("p");
    const key = picked.side + "/" + picked.name;
    note.className = "box-note " + (boxNote && boxNote.key === key ? boxNote.kind : "");
    note.textContent = boxNote && boxNote.key === key ? boxNote.text : "";
    info.replaceChildren(where, how, note,
                         openButton({card: picked.number, side: picked.side, element: item.name}));
  }

  function showCardOpen() {
    // the card's own row or entry, in the editor
    const number = cardShown();
    const card = state && state.cards.find(c => c.number === number);
    document.getElementById("card-open").replaceChildren(
      ...(card && card.edit.file ? [openButton({card: number})] : []));
  }

  // each time the detail draws a side (opened, or drawn again after a save)
  const observer = new MutationObserver(() => { showCardOpen(); showPicked(); });
  for (const layer of document.querySelectorAll("#card .layer")) {
    observer.observe(layer, {childList: true});
  }

  function snapped(item, mode, dx, dy) {
    // the box parts a drag of (dx, dy) mm changes, at whole millimetres
    const [x, y, w, h] = item.mm;
    const moved = {};
    const parts = mode === "move" ? [["x", x, dx], ["y", y, dy]]
      : [["width", w, dx], ["height", h, dy]];
    for (const [name, was, by] of parts) {
      const now = Math.max(mode === "move" ? -Infinity : 0, Math.round(was + by));
      if (now !== Math.round(was)) moved[name] = now;
    }
    return moved;
  }

  document.querySelector("#card .sides").addEventListener("pointerdown", event => {
    const div = event.target.closest(".element");
    if (!div || event.button !== 0) return;
    const side = div.closest(".side").id.replace("side-", "");
    const number = cardShown();
    const item = itemOf(number, side, div.dataset.name);
    if (!item) return;
    event.preventDefault();
    const mode = event.target.classList.contains("corner") ? "resize" : "move";
    if (!picked || picked.number !== number || picked.side !== side ||
        picked.name !== item.name) {
      picked = {number, side, name: item.name};
      showPicked();
    }
    div.setPointerCapture(event.pointerId);
    dragging = {div, item, side, number, mode, startX: event.clientX, startY: event.clientY,
                perPixel: trimMm()[0] / div.closest(".layer").clientWidth, moved: false,
                box: {}, editable: !whyFixed(item)};
  });

  document.querySelector("#card .sides").addEventListener("pointermove", event => {
    if (!dragging) return;
    const dx = event.clientX - dragging.startX, dy = event.clientY - dragging.startY;
    if (!dragging.moved && Math.hypot(dx, dy) < MOVED) return;
    dragging.moved = true;
    if (!dragging.editable) return;
    // the box follows the pointer, snapped: where it would be written
    const box = snapped(dragging.item, dragging.mode, dx * dragging.perPixel,
                        dy * dragging.perPixel);
    dragging.box = box;
    const [width, height] = trimMm();
    const style = dragging.div.style;
    const [x, y, w, h] = dragging.item.mm;
    style.left = 100 * (box.x ?? x) / width + "%";
    style.top = 100 * (box.y ?? y) / height + "%";
    style.width = 100 * (box.width ?? w) / width + "%";
    style.height = 100 * (box.height ?? h) / height + "%";
  });

  document.querySelector("#card .sides").addEventListener("pointerup", async () => {
    const drag = dragging;
    dragging = null;
    if (!drag) return;
    if (drag.moved && drag.editable && Object.keys(drag.box).length) await moveBox(drag);
  });

  async function moveBox(drag) {
    // write the box into its layout file; the card is drawn again after
    const key = drag.side + "/" + drag.item.name;
    const file = fileName(drag.item.box_file);
    boxNote = {key, kind: "", text: "saving…"};
    showPicked();
    const answer = await fetch(asked("/api/edit"), {
      method: "POST", headers: {"Content-Type": "application/json", "X-Cardkit-Token": TOKEN},
      body: JSON.stringify({card: drag.number, side: drag.side, element: drag.item.name,
                            box: drag.box,
                            version: (state.layouts[drag.item.box_file] || {}).version || ""})});
    const reply = await answer.json();
    const edited = Object.entries(drag.box).map(([name, mm]) => name + " " + mm + " mm")
      .join(", ");
    if (reply.saved) {
      state.layouts[drag.item.box_file].version = reply.version;
      boxNote = {key, kind: "saved", text: "saved to " + file + ": " + edited};
      document.dispatchEvent(new CustomEvent("cardkit:saved", {detail: {  // undone in grid.js
        change: reply.change, what: reply.what}}));
    } else if (reply.conflict) {
      boxNote = {key, kind: "problem", text: "Not saved: " + file + " changed on disk since " +
        "the page read it. Its box now reads «" + (reply.now ?? "") + "»; your edit was «" +
        edited + "»."};
    } else if (reply.problem) {
      const p = reply.problem;
      boxNote = {key, kind: "problem", text: "Not saved: " + (p.where ? p.where + ": " : "") +
        p.what + (p.fix ? "; " + p.fix : "")};
    } else {
      boxNote = {key, kind: "problem", text: "Not saved: " + (reply.refused || "refused")};
    }
    await refresh();  // the card as the files say now: moved, or back where it was
    showPicked();
    document.querySelector("#element-info .box-note")?.scrollIntoView({block: "nearest"});
  }
})();
