// The floor for the host's and the waiters' tablets (the tiles and the
// seating dialog are floor.js's), from GET /mesas/eventos (polling GET /mesas
// every 2 s while the stream is down). Tapping a free table seats the next
// waiting parties or walk-ins; an occupied one shows its check and Liberar;
// one to be cleaned, Limpia. Everything from the API goes in as text.
"use strict";
const POLL_MS = 2000;
let poller = null;
let opened = null;   // the table whose dialog is open
let rol = null;      // the logged-in user's role: waiters and the manager open checks

function render(data) {
  Floor.render(document.getElementById("floor"), data.mesas, openTable);
  const free = data.mesas.filter(m => m.estado === "libre").length;
  document.getElementById("summary").textContent = free + " libres de " + data.mesas.length;
  if (opened !== null && !Floor.byID(opened)) closeDialogs();
}

function showError(where, e) {
  const box = document.getElementById(where);
  box.textContent = Floor.message(e);
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

function openTable(id) {
  const mesa = Floor.byID(id);
  if (!mesa) return;
  opened = id;
  if (mesa.estado === "libre") return Floor.openSeat(mesa, body => act("POST", "/mesas/" + mesa.id + "/sentar", body, "seat-error"));
  const dialog = document.getElementById("table");
  document.getElementById("table-title").textContent = "Mesa " + mesa.nombre;
  document.getElementById("table-detail").textContent = Floor.stateText(mesa);
  document.getElementById("table-error").textContent = "";
  const check = document.getElementById("table-check");
  check.textContent = mesa.estado === "ocupada" && mesa.cuenta_id ? "Cuenta n.º " + mesa.cuenta_id : "";
  const actions = document.getElementById("table-actions");
  actions.replaceChildren(Staff.button("Volver", "quiet", closeDialogs));
  const main = mesa.unida_a ? Floor.byID(mesa.unida_a) : mesa;
  if (mesa.estado === "ocupada" && main) {
    // The check itself is worked on the waiter's page.
    if (rol !== "anfitrion") {
      const link = Staff.el("a", "button go", "Abrir la cuenta");
      link.href = "/camarero#mesa-" + main.id;
      actions.append(link);
    }
    // Moving a party is a check's move, the waiters' and the manager's (the contract's roles): the host asks one of them.
    if (rol !== "anfitrion" && main.cuenta_id) {
      actions.append(Staff.button("Mover", "quiet", () => openMove(main)));
    }
    actions.append(Staff.button("Liberar" + (mesa.unida_a ? " " + main.nombre : ""), "bad",
      () => act("POST", "/mesas/" + main.id + "/liberar", undefined, "table-error")));
  } else if (mesa.estado === "por_limpiar") {
    actions.append(Staff.button("Limpia", "ok", () => act("POST", "/mesas/" + mesa.id + "/limpia", undefined, "table-error")));
  }
  dialog.showModal();
}

/** Moving a seated party: the free tables, of its zone first; one tap moves it. */
function openMove(main) {
  document.getElementById("table-title").textContent = "Mover " + main.nombre + " a…";
  document.getElementById("table-detail").textContent = (main.comensales || 0) + " comensales. Toque la mesa libre a la que pasan.";
  document.getElementById("table-check").textContent = "";
  const free = Floor.mesas().filter(m => m.estado === "libre")
    .sort((a, b) => (a.zona === main.zona ? 0 : 1) - (b.zona === main.zona ? 0 : 1) || a.zona.localeCompare(b.zona, "es")
      || a.nombre.localeCompare(b.nombre, "es", { numeric: true }));
  const tiles = Staff.el("div", "tiles move-tiles");
  tiles.append(...free.map(m => {
    const b = Staff.button("", "tile libre", () => act("POST", "/cuentas/" + main.cuenta_id + "/mover", { mesa_id: m.id }, "table-error"));
    b.dataset.id = String(m.id);
    b.setAttribute("aria-label", "Mover a la mesa " + m.nombre + ", " + m.plazas + " plazas");
    b.append(Staff.el("span", "name", m.nombre), Staff.el("span", "seats", m.plazas + " plazas"));
    if (m.zona) b.append(Staff.el("span", "state", m.zona));
    return b;
  }));
  if (free.length === 0) tiles.append(Staff.el("p", "empty", "No hay mesas libres."));
  document.getElementById("table-actions").replaceChildren(tiles, Staff.button("Volver", "quiet", closeDialogs));
}

for (const d of document.querySelectorAll("dialog")) {
  d.addEventListener("close", () => { opened = null; });
  for (const b of d.querySelectorAll("[data-close]")) b.addEventListener("click", closeDialogs);
}

function tickClock() { document.getElementById("clock").textContent = Staff.clock(new Date()); }
tickClock();
setInterval(tickClock, 1000);
setInterval(() => { if (Floor.mesas().length) render({ mesas: Floor.mesas() }); }, 30000);

Staff.login(["anfitrion", "camarero", "gerente"], (me) => {
  rol = me.rol;
  poller = Staff.live({ stream: "/mesas/eventos", ticket: true, events: { mesas: render },
                        poll: "/mesas", ms: POLL_MS, render });
}, () => {
  if (poller) poller.stop();
  poller = null;
});
