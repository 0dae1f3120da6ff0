// The kitchen board: the online orders in three columns (Nuevos = realizado,
// En preparación = aceptado, Listos = preparado) and beside them the tables'
// comandas once fired (marchada with the orders being cooked, preparada with
// the ready ones until the waiter serves them), oldest first, each with its
// number or table and course, the minutes since, its lines with options and
// notes (voided lines struck through) and the buttons for its next moves;
// the tables' held courses greyed under their table (what is coming), online
// orders told apart from tables ("Pedido #12 · Online", "Mesa 12"), and above
// it all the rush's all-day count of what is fired and not ready.
// Follows GET /cocina/eventos (a snapshot, the comandas, then each order and
// comanda as it moves), polling GET /cocina/pedidos and /cocina/comandas
// every 2 s with If-None-Match while the stream is down; a new order or
// comanda is marked and announced with a short sound the cook can switch
// off. Everything from the API goes in as text.
"use strict";
const POLL_MS = 2000;
const MINUTES = [5, 10, 15, 20, 25, 30, 45, 60];
const REASONS = ["Cocina cerrada", "Falta un ingrediente", "Demasiados pedidos", "Fuera de la zona de reparto"];
let poller = null;
let seen = null;          // order ids shown so far (null before the first list)
const fresh = new Map();  // id → time it arrived, for the "new" mark
let current = [];
let comandas = [];        // the fired comandas (marchada, preparada)
let seenComandas = null;  // comanda ids shown so far (null before the first list)
const CURSOS = ["Primeros", "Segundos", "Postres", "Cuarto", "Quinto"];

function minutesBetween(fromMs, toMs) { return Math.floor((toMs - fromMs) / 60000); }

/** A line: quantity and name, its options and notes under it; a voided one struck through. */
function lineItem(linea) {
  const li = Staff.el("li", linea.estado === "anulada" ? "anulada" : "");
  const name = Staff.el("span", "what");
  name.append(Staff.el("span", "qty", linea.cantidad + " ×"), document.createTextNode(linea.nombre));
  li.append(name);
  if (linea.estado === "anulada") li.append(Staff.el("span", "void", "ANULADA"));
  for (const o of linea.opciones || []) li.append(Staff.el("div", "option", "· " + o.valor));
  if (linea.notas) li.append(Staff.el("div", "note", "«" + linea.notas + "»"));
  return li;
}

const button = Staff.button;

function card(pedido, nowMs) {
  const c = Staff.el("article", "card " + pedido.estado);
  c.dataset.id = String(pedido.id);
  const isNew = pedido.estado === "realizado" && fresh.has(pedido.id);
  if (isNew) c.classList.add("nuevo");
  const top = Staff.el("div", "top");
  // An online order never looks like a table: "Pedido #12" with its tag, a table's comanda "Mesa 12".
  top.append(Staff.el("span", "num", "Pedido #" + pedido.id), Staff.el("span", "kind online", "Online"));
  if (isNew) top.append(Staff.el("span", "badge", "NUEVO"));
  const placed = Date.parse(pedido.fecha);
  top.append(Staff.el("span", "since", "hace " + Math.max(0, minutesBetween(placed, nowMs)) + " min · " + Staff.clock(new Date(placed))));
  c.append(top, Staff.el("div", "who", pedido.cliente.nombre));
  const ul = Staff.el("ul");
  ul.append(...pedido.lineas.map(lineItem));
  c.append(ul);
  if (pedido.estado === "aceptado" && pedido.listo_estimado) {
    const left = minutesBetween(nowMs, Date.parse(pedido.listo_estimado));
    const text = left >= 0 ? "Quedan " + left + " min (" + Staff.clock(new Date(pedido.listo_estimado)) + ")"
                           : "Retraso " + (-left) + " min";
    c.append(Staff.el("div", "left" + (left < 0 ? " late" : ""), text));
  }
  const buttons = Staff.el("div", "buttons");
  if (pedido.estado === "realizado") {
    buttons.append(button("Aceptar", "ok", () => openAccept(pedido.id)), button("Rechazar", "bad", () => openReject(pedido.id)));
  } else if (pedido.estado === "aceptado") {
    buttons.append(button("Listo", "ok", () => move(pedido.id, "preparado")));
  } else if (pedido.estado === "preparado") {
    buttons.append(button("Entregado", "go", () => move(pedido.id, "entregado")));
  }
  buttons.append(button("Ticket", "quiet", () => showTicket("/cocina/pedidos/" + pedido.id + "/ticket")));
  c.append(buttons);
  return c;
}

/** A table's comanda: the table and course in big type, the waiter, the lines; Listo once fired. */
function comandaCard(c, nowMs) {
  const card = Staff.el("article", "card comanda " + c.estado);
  card.dataset.comanda = String(c.id);
  if (fresh.has("c" + c.id)) card.classList.add("nuevo");
  const top = Staff.el("div", "top");
  top.append(Staff.el("span", "num", "Mesa " + c.mesa), Staff.el("span", "course", CURSOS[c.curso - 1]));
  const fired = Date.parse(c.marchada);
  card.append(top, Staff.el("div", "who", "Comanda " + c.id + (c.camarero ? " · " + c.camarero.nombre : "")
    + " · hace " + Math.max(0, minutesBetween(fired, nowMs)) + " min · " + Staff.clock(new Date(fired))));
  const ul = Staff.el("ul");
  ul.append(...c.lineas.map(lineItem));
  card.append(ul);
  const buttons = Staff.el("div", "buttons");
  if (c.estado === "marchada") buttons.append(button("Listo", "ok", () => ready(c.id)));
  else buttons.append(Staff.el("span", "waiting", "Para servir"));
  buttons.append(button("Ticket", "quiet", () => showTicket("/cocina/comandas/" + c.id + "/ticket")));
  card.append(buttons);
  return card;
}

/** A held course (en espera): greyed under its table, what is coming, no buttons. */
function heldCard(c, alone) {
  const card = Staff.el("article", "card comanda espera");
  card.dataset.comanda = String(c.id);
  const top = Staff.el("div", "top");
  // Under its table's card the table goes without saying; on its own it is named.
  if (alone) top.append(Staff.el("span", "num", "Mesa " + c.mesa));
  top.append(Staff.el("span", "course", CURSOS[c.curso - 1]), Staff.el("span", "kind held", "EN ESPERA"));
  const ul = Staff.el("ul");
  ul.append(...c.lineas.filter(l => l.estado !== "anulada").map(lineItem));
  card.append(top, ul);
  return card;
}

/** What is fired and not ready yet, dish by dish ("6 × Paella"): the rush's all-day count. */
function drawAllDay() {
  const counts = new Map();
  const add = (nombre, cantidad) => counts.set(nombre, (counts.get(nombre) || 0) + cantidad);
  for (const c of comandas) if (c.estado === "marchada") for (const l of c.lineas) if (l.estado !== "anulada") add(l.nombre, l.cantidad);
  for (const p of current) if (p.estado === "aceptado") for (const l of p.lineas) add(l.nombre, l.cantidad);
  const bar = document.getElementById("todo-el-dia");
  const items = [...counts].sort((a, b) => (b[1] - a[1]) || a[0].localeCompare(b[0], "es"));
  bar.hidden = items.length === 0;
  const list = document.getElementById("todo-el-dia-lista");
  list.replaceChildren(...items.map(([nombre, n]) => {
    const li = Staff.el("li");
    li.append(Staff.el("span", "qty", n + " ×"), document.createTextNode(nombre));
    return li;
  }));
}

let held = [];            // the tables' held courses (en_espera), greyed under their table
let heldTimer = null;
/** The held courses, read again shortly after any comanda moves (a send holds later courses; a fire releases one). */
function refreshHeld() {
  if (heldTimer) return;
  heldTimer = setTimeout(async () => {
    heldTimer = null;
    try { held = await Staff.api("GET", "/cocina/comandas?estado=en_espera"); draw(); } catch (e) { /* kept as it was */ }
  }, 150);
}

/** The cooking column's cards, each table's held courses greyed under its last card cooking (one block, so
 * they stay together as the cards flow side by side); a table with nothing cooking gets its held ones at the end. */
function withHeld(nodes, cooking) {
  const pending = held.filter(h => !cooking.some(c => c.id === h.id));
  const out = nodes.map(node => {
    const c = cooking.find(x => String(x.id) === node.dataset.comanda);
    const lastOfTable = c && !cooking.some(x => x.cuenta_id === c.cuenta_id && Date.parse(x.marchada) > Date.parse(c.marchada));
    const mine = lastOfTable ? pending.filter(h => h.cuenta_id === c.cuenta_id) : [];
    if (mine.length === 0) return node;
    const block = Staff.el("div", "mesa-bloque");
    block.append(node, ...mine.map(h => heldCard(h, false)));
    mine.forEach(h => pending.splice(pending.indexOf(h), 1));
    return block;
  });
  return out.concat(pending.map(h => heldCard(h, true)));
}

function render(list) {
  current = list;
  draw();
}

function renderComandas(list) {
  comandas = list;
  const nowMs = Date.now();
  if (seenComandas === null) {
    seenComandas = new Set(list.map(c => c.id));
  } else {
    const arrived = list.filter(c => !seenComandas.has(c.id));
    arrived.forEach(c => { seenComandas.add(c.id); fresh.set("c" + c.id, nowMs); });
    if (arrived.length > 0) chime();
  }
  refreshHeld();
  draw();
}

/** One comanda fired, ready, served or with a line voided (from the stream). */
function comandaChanged(c) {
  // A comanda too big for one event comes as {id, cambiada}: the list is fetched again.
  if (c.cambiada) { Staff.api("GET", "/cocina/comandas").then(renderComandas, () => {}); return; }
  const others = comandas.filter(x => x.id !== c.id);
  const list = c.estado === "marchada" || c.estado === "preparada" ? others.concat([c]) : others;
  list.sort((a, b) => (Date.parse(a.marchada) - Date.parse(b.marchada)) || (a.id - b.id));
  renderComandas(list);
}

function draw() {
  const list = current;
  const nowMs = Date.now();
  if (seen === null) {
    seen = new Set(list.map(p => p.id));
  } else {
    const arrived = list.filter(p => !seen.has(p.id));
    arrived.forEach(p => { seen.add(p.id); fresh.set(p.id, nowMs); });
    if (arrived.length > 0) chime();
  }
  for (const [id, at] of fresh) if (nowMs - at > 60000) fresh.delete(id);
  // Fired comandas cook beside the accepted orders, ready ones wait beside the ready orders; oldest first.
  const tables = { realizado: [], aceptado: comandas.filter(c => c.estado === "marchada"), preparado: comandas.filter(c => c.estado === "preparada") };
  for (const estado of ["realizado", "aceptado", "preparado"]) {
    const items = list.filter(p => p.estado === estado).map(p => ({ at: Date.parse(p.fecha), node: () => card(p, nowMs) }))
      .concat(tables[estado].map(c => ({ at: Date.parse(c.marchada), node: () => comandaCard(c, nowMs) })))
      .sort((a, b) => a.at - b.at);
    const column = document.getElementById("col-" + estado);
    let nodes = items.map(i => i.node());
    if (estado === "aceptado") nodes = withHeld(nodes, tables.aceptado);
    column.replaceChildren(...nodes);
    if (nodes.length === 0) column.replaceChildren(Staff.el("div", "empty", "—"));
    document.getElementById("count-" + estado).textContent = items.length ? "(" + items.length + ")" : "";
  }
  drawAllDay();
}

function showError(e) {
  const toast = document.getElementById("action-error");
  toast.textContent = e.status === 409 ? "Otro puesto ya lo ha movido" + (e.error.estado ? ": está " + e.error.estado.replace("_", " ") : "") + "."
                                       : (e.error && e.error.message) || "No se pudo hacer.";
  toast.hidden = false;
  setTimeout(() => { toast.hidden = true; }, 4000);
}

async function move(id, action, body) {
  try {
    await Staff.api("POST", "/cocina/pedidos/" + id + "/" + action, body || {});
    fresh.delete(id);
  } catch (e) {
    if (e.status !== 401) showError(e);
  }
  if (poller) poller.now();
}

const ACTIVE = ["realizado", "aceptado", "preparado"];

/** One order placed or moved (from the stream): replace it, or drop it once it leaves the board. */
function changed(pedido) {
  const others = current.filter(p => p.id !== pedido.id);
  const list = ACTIVE.includes(pedido.estado) ? others.concat([pedido]) : others;
  list.sort((a, b) => (Date.parse(a.fecha) - Date.parse(b.fecha)) || (a.id - b.id));
  render(list);
}

function openAccept(id) {
  const dialog = document.getElementById("accept");
  document.getElementById("accept-id").textContent = "#" + id;
  document.getElementById("accept-minutes").replaceChildren(...MINUTES.map(m =>
    button(m + " min", "go", () => { dialog.close(); move(id, "aceptar", { minutos: m }); })));
  dialog.showModal();
}

function openReject(id) {
  const dialog = document.getElementById("reject");
  const text = document.getElementById("reject-text");
  document.getElementById("reject-id").textContent = "#" + id;
  document.getElementById("reject-error").textContent = "";
  text.value = "";
  document.getElementById("reject-reasons").replaceChildren(...REASONS.map(r => button(r, "quiet", () => { text.value = r; })));
  document.getElementById("reject-confirm").onclick = () => {
    if (text.value.trim() === "") { document.getElementById("reject-error").textContent = "Escriba o elija un motivo."; return; }
    dialog.close();
    move(id, "rechazar", { motivo: text.value });
  };
  dialog.showModal();
}

async function ready(id) {
  try {
    await Staff.api("POST", "/cocina/comandas/" + id + "/preparada");
    fresh.delete("c" + id);
  } catch (e) {
    if (e.status !== 401) showError(e);
  }
  if (poller) poller.now();
}

async function showTicket(path) {
  try {
    document.getElementById("ticket-text").textContent = await Staff.api("GET", path);
    document.getElementById("ticket").showModal();
  } catch (e) {
    if (e.status !== 401) showError(e);
  }
}

document.getElementById("ticket-print").addEventListener("click", () => {
  const w = window.open("", "_blank", "width=420,height=640");
  if (!w) return;
  const pre = w.document.createElement("pre");
  pre.textContent = document.getElementById("ticket-text").textContent;
  pre.style.font = "14px monospace";
  w.document.body.append(pre);
  w.print();
});
for (const b of document.querySelectorAll("dialog [data-close]")) b.addEventListener("click", () => b.closest("dialog").close());

// The chime (Staff.chime) when something new arrives; the cook can switch it off.
let soundOn = localStorage.getItem("comanda.cocina.sonido") !== "no";
function chime() { if (soundOn) Staff.chime(); }
function showSound() {
  const b = document.getElementById("sound");
  b.textContent = soundOn ? "Sonido: sí" : "Sonido: no";
  b.setAttribute("aria-pressed", String(soundOn));
}
document.getElementById("sound").addEventListener("click", () => {
  soundOn = !soundOn;
  localStorage.setItem("comanda.cocina.sonido", soundOn ? "si" : "no");
  showSound();
  if (soundOn) chime();
});
showSound();

function tickClock() { document.getElementById("clock").textContent = Staff.clock(new Date()); }
tickClock();
setInterval(tickClock, 1000);
setInterval(() => { refreshHeld(); if (current.length || comandas.length) draw(); }, 15000);

Staff.login(["cocina", "gerente"], () => {
  seen = null;
  seenComandas = null;
  poller = Staff.live({ stream: "/cocina/eventos", ticket: true,
                        events: { snapshot: render, pedido: changed, comandas: renderComandas, comanda: comandaChanged,
                                  impresoras: list => Staff.printerNotice(document.getElementById("impresoras-aviso"), list) },
                        poll: "/cocina/pedidos", ms: POLL_MS, render,
                        also: [{ poll: "/cocina/comandas", render: renderComandas }] });
  // The printers' state now (the stream tells each change after).
  Staff.api("GET", "/impresoras").then(list => Staff.printerNotice(document.getElementById("impresoras-aviso"), list), () => {});
}, () => {
  if (poller) poller.stop();
  poller = null;
});
