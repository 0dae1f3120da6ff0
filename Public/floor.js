// The floor, shared by the host's tablet (/sala) and the waiter's phone
// (/camarero): the tables as tiles by zone (free green, occupied orange with
// guests and minutes seated, to be cleaned grey) and the dialog that seats a
// free table with a waiting party (those that fit first) or walk-ins.
// Everything from the API goes in as text.
"use strict";
const Floor = (() => {
  let current = [];

  function minutesSince(iso) { return Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 60000)); }

  function byID(id) { return current.find(m => m.id === id); }

  function stateText(mesa) {
    if (mesa.estado === "libre") return "Libre";
    if (mesa.estado === "por_limpiar") return "Por limpiar · " + minutesSince(mesa.desde) + " min";
    const joined = mesa.unida_a ? byID(mesa.unida_a) : null;
    if (joined) return "Unida a " + joined.nombre;
    return (mesa.comensales || 0) + " com. · " + minutesSince(mesa.desde) + " min";
  }

  function tile(mesa, open) {
    const b = Staff.button("", "tile " + mesa.estado + (mesa.unida_a ? " joined" : ""), () => open(mesa.id));
    b.dataset.id = String(mesa.id);
    b.dataset.estado = mesa.estado;
    b.append(Staff.el("span", "name", mesa.nombre), Staff.el("span", "seats", mesa.plazas + " plazas"), Staff.el("span", "state", stateText(mesa)));
    b.setAttribute("aria-label", "Mesa " + mesa.nombre + ", " + mesa.plazas + " plazas, " + stateText(mesa));
    return b;
  }

  /** Draws `mesas` by zone into `container`; tapping a tile calls `open(id)`. */
  function render(container, mesas, open) {
    current = mesas;
    if (mesas.length === 0) {
      container.replaceChildren(Staff.el("p", "empty", "Todavía no hay mesas: el gerente las crea."));
      return;
    }
    const zones = new Map();
    for (const m of mesas) {
      if (!zones.has(m.zona)) zones.set(m.zona, []);
      zones.get(m.zona).push(m);
    }
    container.replaceChildren(...[...zones].map(([zona, list]) => {
      const section = Staff.el("section", "zone");
      const tiles = Staff.el("div", "tiles");
      tiles.append(...list.map(m => tile(m, open)));
      section.append(Staff.el("h2", null, zona || "Sala"), tiles);
      return section;
    }));
  }

  /** The seating dialog, made once for the page that uses it (the same on every page with a floor). */
  function seatDialog() {
    let dialog = document.getElementById("seat");
    if (dialog) return dialog;
    dialog = Staff.el("dialog");
    dialog.id = "seat";
    dialog.setAttribute("aria-labelledby", "seat-title");
    const title = Staff.el("h2", null, "Sentar en ");
    title.id = "seat-title";
    const name = Staff.el("span");
    name.id = "seat-name";
    title.append(name);
    const withId = (tag, className, id, text) => { const node = Staff.el(tag, className, text); node.id = id; return node; };
    const error = withId("div", "error", "seat-error");
    error.setAttribute("role", "alert");
    const actions = Staff.el("div", "actions");
    actions.append(Staff.button("Cancelar", "quiet", () => dialog.close()));
    dialog.append(title, withId("p", "hint", "seat-seats"), Staff.el("h3", null, "De la lista de espera"),
                  withId("div", "choices", "seat-parties"), Staff.el("h3", null, "Sin reserva: ¿cuántos comensales?"),
                  withId("div", "choices", "seat-walkins"), error, actions);
    document.body.append(dialog);
    return dialog;
  }

  /**
   * Opens the seating dialog for a free table: the waiting parties (those
   * that fit first) and walk-ins by number. `seat(body)` does the POST …/sentar.
   */
  async function openSeat(mesa, seat) {
    const dialog = seatDialog();
    document.getElementById("seat-name").textContent = mesa.nombre;
    document.getElementById("seat-seats").textContent = mesa.plazas + " plazas";
    document.getElementById("seat-error").textContent = "";
    const parties = document.getElementById("seat-parties");
    parties.replaceChildren(Staff.el("p", "hint", "Cargando…"));
    const walkins = document.getElementById("seat-walkins");
    walkins.replaceChildren(...[1, 2, 3, 4, 5, 6, 7, 8].map(n => Staff.button(String(n), "go", () => seat({ comensales: n }))));
    dialog.showModal();
    try {
      const list = await Staff.api("GET", "/reservations");
      const waiting = list.reservations.filter(p => p.status === "waiting" || p.status === "ready");
      const fits = waiting.filter(p => p.size <= mesa.plazas).concat(waiting.filter(p => p.size > mesa.plazas));
      if (fits.length === 0) parties.replaceChildren(Staff.el("p", "hint", "Nadie esperando."));
      else parties.replaceChildren(...fits.slice(0, 6).map(p => {
        const b = Staff.button(p.name + " · " + p.size, p.size <= mesa.plazas ? "ok" : "quiet",
          () => seat({ comensales: p.size, reservation_id: p.id }));
        b.dataset.party = String(p.id);
        return b;
      }));
    } catch (e) {
      parties.replaceChildren(Staff.el("p", "hint", "No se pudo leer la lista de espera."));
    }
  }

  /** A Spanish message for an error of the floor's moves. */
  function message(e) {
    const code = e && e.error && e.error.code;
    const messages = {
      transicion_no_valida: "La mesa ya no está en ese estado: otra persona se adelantó.",
      cuenta_pendiente: "La cuenta tiene algo por cobrar: no se puede liberar todavía.",
      validation_failed: "Ese grupo ya no está esperando.",
    };
    return messages[code] || (e && e.error && e.error.message) || "No se pudo hacer.";
  }

  return { render, openSeat, stateText, byID, message, mesas: () => current };
})();
