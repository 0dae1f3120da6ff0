// The kitchen board: the orders in three columns (Nuevos = realizado, En
// preparación = aceptado, Listos = preparado), oldest first, each with its
// number, the minutes since it was placed, its lines and the buttons for its
// next moves. Follows GET /cocina/eventos (a snapshot, then each order as it
// is placed or moved), polling GET /cocina/pedidos every 2 s with
// If-None-Match while the stream is down; a new order is marked and announced
// with a short sound the cook can switch off. Everything from the API goes in as text.
"use strict";
const POLL_MS = 2000;
const MINUTES = [5, 10, 15, 20, 25, 30, 45, 60];
const REASONS = ["Cocina cerrada", "Falta un ingrediente", "Demasiados pedidos", "Fuera de la zona de reparto"];
let poller = null;
let seen = null;          // order ids shown so far (null before the first list)
const fresh = new Map();  // id → time it arrived, for the "new" mark
let current = [];

function minutesBetween(fromMs, toMs) { return Math.floor((toMs - fromMs) / 60000); }

function lineItem(linea) {
  const li = Staff.el("li");
  li.append(Staff.el("span", "qty", linea.cantidad + " ×"), document.createTextNode(linea.nombre));
  return li;
}

const button = Staff.button;

function card(pedido, nowMs) {
  const c = Staff.el("article", "card " + pedido.estado);
  c.dataset.id = String(pedido.id);
  const isNew = pedido.estado === "realizado" && fresh.has(pedido.id);
  if (isNew) c.classList.add("nuevo");
  const top = Staff.el("div", "top");
  top.append(Staff.el("span", "num", "#" + pedido.id));
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
  buttons.append(button("Ticket", "quiet", () => showTicket(pedido.id)));
  c.append(buttons);
  return c;
}

function render(list) {
  current = list;
  const nowMs = Date.now();
  if (seen === null) {
    seen = new Set(list.map(p => p.id));
  } else {
    const arrived = list.filter(p => !seen.has(p.id));
    arrived.forEach(p => { seen.add(p.id); fresh.set(p.id, nowMs); });
    if (arrived.length > 0) chime();
  }
  for (const [id, at] of fresh) if (nowMs - at > 60000) fresh.delete(id);
  for (const estado of ["realizado", "aceptado", "preparado"]) {
    const orders = list.filter(p => p.estado === estado);
    const column = document.getElementById("col-" + estado);
    column.replaceChildren(...orders.map(p => card(p, nowMs)));
    if (orders.length === 0) column.replaceChildren(Staff.el("div", "empty", "—"));
    document.getElementById("count-" + estado).textContent = orders.length ? "(" + orders.length + ")" : "";
  }
}

function showError(e) {
  const toast = document.getElementById("action-error");
  toast.textContent = e.status === 409 ? "Otro puesto ya lo ha movido: el pedido está " + (e.error.estado || "en otro estado") + "."
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

async function showTicket(id) {
  try {
    document.getElementById("ticket-text").textContent = await Staff.api("GET", "/cocina/pedidos/" + id + "/ticket");
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

// A short two-tone chime through Web Audio (no file to load); the cook can switch it off.
let soundOn = localStorage.getItem("comanda.cocina.sonido") !== "no";
let audio = null;
function chime() {
  if (!soundOn) return;
  try {
    audio = audio || new AudioContext();
    [0, 0.18].forEach((delay, i) => {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = i ? 1320 : 880;
      gain.gain.setValueAtTime(0.25, audio.currentTime + delay);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + delay + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + delay);
      osc.stop(audio.currentTime + delay + 0.17);
    });
  } catch (e) { /* no audio on this device */ }
}
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
setInterval(() => { if (current.length) render(current); }, 15000);

Staff.login(["cocina", "gerente"], () => {
  seen = null;
  poller = Staff.live({ stream: "/cocina/eventos", ticket: true, events: { snapshot: render, pedido: changed },
                        poll: "/cocina/pedidos", ms: POLL_MS, render });
}, () => {
  if (poller) poller.stop();
  poller = null;
});
