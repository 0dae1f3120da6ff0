// The floor for the host's and the waiters' tablets: the tables as tiles by
// zone (free green, occupied orange with minutes seated and guests, to be
// cleaned grey), from GET /mesas/eventos (polling GET /mesas every 2 s while
// the stream is down). Tapping a free table seats the next waiting parties
// (offered by name and size) or walk-ins; an occupied one shows its check
// and Liberar; one to be cleaned, Limpia. Everything from the API goes in as text.
"use strict";
const POLL_MS = 2000;
let poller = null;
let current = [];
let opened = null;   // the table whose dialog is open

function minutesSince(iso) { return Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 60000)); }

function stateText(mesa) {
  if (mesa.estado === "libre") return "Libre";
  if (mesa.estado === "por_limpiar") return "Por limpiar · " + minutesSince(mesa.desde) + " min";
  const joined = mesa.unida_a ? byID(mesa.unida_a) : null;
  if (joined) return "Unida a " + joined.nombre;
  return (mesa.comensales || 0) + " com. · " + minutesSince(mesa.desde) + " min";
}

function byID(id) { return current.find(m => m.id === id); }

function tile(mesa) {
  const b = Staff.button("", "tile " + mesa.estado + (mesa.unida_a ? " joined" : ""), () => openTable(mesa.id));
  b.dataset.id = String(mesa.id);
  b.dataset.estado = mesa.estado;
  b.append(Staff.el("span", "name", mesa.nombre), Staff.el("span", "seats", mesa.plazas + " plazas"), Staff.el("span", "state", stateText(mesa)));
  b.setAttribute("aria-label", "Mesa " + mesa.nombre + ", " + mesa.plazas + " plazas, " + stateText(mesa));
  return b;
}

function render(data) {
  current = data.mesas;
  const floor = document.getElementById("floor");
  if (current.length === 0) {
    floor.replaceChildren(Staff.el("p", "empty", "Todavía no hay mesas: el gerente las crea."));
  } else {
    const zones = new Map();
    for (const m of current) {
      if (!zones.has(m.zona)) zones.set(m.zona, []);
      zones.get(m.zona).push(m);
    }
    floor.replaceChildren(...[...zones].map(([zona, mesas]) => {
      const section = Staff.el("section", "zone");
      const tiles = Staff.el("div", "tiles");
      tiles.append(...mesas.map(tile));
      section.append(Staff.el("h2", null, zona || "Sala"), tiles);
      return section;
    }));
  }
  const free = current.filter(m => m.estado === "libre").length;
  document.getElementById("summary").textContent = free + " libres de " + current.length;
  if (opened !== null && !byID(opened)) closeDialogs();
}

function showError(where, e) {
  const box = document.getElementById(where);
  const code = e && e.error && e.error.code;
  const messages = {
    transicion_no_valida: "La mesa ya no está en ese estado: otra persona se adelantó.",
    cuenta_pendiente: "La cuenta tiene algo por cobrar: no se puede liberar todavía.",
    validation_failed: "Ese grupo ya no está esperando.",
  };
  box.textContent = messages[code] || (e && e.error && e.error.message) || "No se pudo hacer.";
  box.hidden = false;
}

async function act(method, path, body, errorBox) {
  try {
    const result = await Staff.api(method, path, body);
    closeDialogs();
    if (poller) poller.now();
    return result;
  } catch (e) {
    showError(errorBox, e);
    return null;
  }
}

function closeDialogs() {
  opened = null;
  for (const d of document.querySelectorAll("dialog")) if (d.open) d.close();
}

async function openTable(id) {
  const mesa = byID(id);
  if (!mesa) return;
  opened = id;
  if (mesa.estado === "libre") return openSeat(mesa);
  const dialog = document.getElementById("table");
  document.getElementById("table-title").textContent = "Mesa " + mesa.nombre;
  document.getElementById("table-detail").textContent = stateText(mesa);
  document.getElementById("table-error").textContent = "";
  const check = document.getElementById("table-check");
  check.textContent = mesa.estado === "ocupada" && mesa.cuenta_id
    ? "Cuenta n.º " + mesa.cuenta_id + ": la comanda y el cobro llegarán con el servicio de mesa." : "";
  const actions = document.getElementById("table-actions");
  actions.replaceChildren(Staff.button("Volver", "quiet", closeDialogs));
  const main = mesa.unida_a ? byID(mesa.unida_a) : mesa;
  if (mesa.estado === "ocupada" && main) {
    actions.append(Staff.button("Liberar" + (mesa.unida_a ? " " + main.nombre : ""), "bad",
      () => act("POST", "/mesas/" + main.id + "/liberar", undefined, "table-error")));
  } else if (mesa.estado === "por_limpiar") {
    actions.append(Staff.button("Limpia", "ok", () => act("POST", "/mesas/" + mesa.id + "/limpia", undefined, "table-error")));
  }
  dialog.showModal();
}

async function openSeat(mesa) {
  const dialog = document.getElementById("seat");
  document.getElementById("seat-name").textContent = mesa.nombre;
  document.getElementById("seat-seats").textContent = mesa.plazas + " plazas";
  document.getElementById("seat-error").textContent = "";
  const parties = document.getElementById("seat-parties");
  parties.replaceChildren(Staff.el("p", "hint", "Cargando…"));
  const walkins = document.getElementById("seat-walkins");
  walkins.replaceChildren(...[1, 2, 3, 4, 5, 6, 7, 8].map(n =>
    Staff.button(String(n), "go", () => act("POST", "/mesas/" + mesa.id + "/sentar", { comensales: n }, "seat-error"))));
  dialog.showModal();
  try {
    const list = await Staff.api("GET", "/reservations");
    // The parties that fit first (by size, then by the list's order), the rest after.
    const waiting = list.reservations.filter(p => p.status === "waiting" || p.status === "ready");
    const fits = waiting.filter(p => p.size <= mesa.plazas).concat(waiting.filter(p => p.size > mesa.plazas));
    if (fits.length === 0) parties.replaceChildren(Staff.el("p", "hint", "Nadie esperando."));
    else parties.replaceChildren(...fits.slice(0, 6).map(p => {
      const b = Staff.button(p.name + " · " + p.size, p.size <= mesa.plazas ? "ok" : "quiet",
        () => act("POST", "/mesas/" + mesa.id + "/sentar", { comensales: p.size, reservation_id: p.id }, "seat-error"));
      b.dataset.party = String(p.id);
      return b;
    }));
  } catch (e) {
    parties.replaceChildren(Staff.el("p", "hint", "No se pudo leer la lista de espera."));
  }
}

for (const d of document.querySelectorAll("dialog")) {
  d.addEventListener("close", () => { opened = null; });
  for (const b of d.querySelectorAll("[data-close]")) b.addEventListener("click", closeDialogs);
}

function tickClock() { document.getElementById("clock").textContent = Staff.clock(new Date()); }
tickClock();
setInterval(tickClock, 1000);
setInterval(() => { if (current.length) render({ mesas: current }); }, 30000);

Staff.login(["anfitrion", "camarero", "gerente"], () => {
  poller = Staff.live({ stream: "/mesas/eventos", ticket: true, events: { mesas: render },
                        poll: "/mesas", ms: POLL_MS, render });
}, () => {
  if (poller) poller.stop();
  poller = null;
});
