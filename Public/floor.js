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
    // A party bigger than the table: the free tables to join, the nearest of its zone suggested.
    const join = withId("section", "join", "seat-join");
    join.hidden = true;
    const joinTitle = withId("h3", null, "seat-join-title");
    join.append(joinTitle, withId("p", "hint", "seat-join-hint"), withId("div", "tiles join-tiles", "seat-join-tables"),
                withId("p", "resumen", "seat-join-sum"), withId("div", "actions", "seat-join-actions"));
    const pick = Staff.el("div");
    pick.id = "seat-pick";
    pick.append(Staff.el("h3", null, "De la lista de espera"), withId("div", "choices", "seat-parties"),
                Staff.el("h3", null, "Sin reserva: ¿cuántos comensales?"), withId("div", "choices", "seat-walkins"));
    dialog.append(title, withId("p", "hint", "seat-seats"), pick, join, error, actions);
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
    document.getElementById("seat-pick").hidden = false;
    document.getElementById("seat-join").hidden = true;
    // A party the table cannot hold is offered the free tables to join first (or seated without, a chair added).
    const choose = body => body.comensales > mesa.plazas && suggestJoin(mesa, body.comensales).length ? offerJoin(mesa, body, seat) : seat(body);
    const walkins = document.getElementById("seat-walkins");
    walkins.replaceChildren(...[1, 2, 3, 4, 5, 6, 7, 8, 10, 12].map(n => Staff.button(String(n), "go", () => choose({ comensales: n }))));
    dialog.showModal();
    try {
      const list = await Staff.api("GET", "/reservations");
      const waiting = list.reservations.filter(p => p.status === "waiting" || p.status === "ready");
      const fits = waiting.filter(p => p.size <= mesa.plazas).concat(waiting.filter(p => p.size > mesa.plazas));
      if (fits.length === 0) parties.replaceChildren(Staff.el("p", "hint", "Nadie esperando."));
      else parties.replaceChildren(...fits.slice(0, 6).map(p => {
        const b = Staff.button(p.name + " · " + p.size, p.size <= mesa.plazas ? "ok" : "quiet",
          () => choose({ comensales: p.size, reservation_id: p.id }));
        b.dataset.party = String(p.id);
        return b;
      }));
    } catch (e) {
      parties.replaceChildren(Staff.el("p", "hint", "No se pudo leer la lista de espera."));
    }
  }

  /** Natural order of names (T2 before T10). */
  const byName = (a, b) => a.nombre.localeCompare(b.nombre, "es", { numeric: true });

  /**
   * The free tables to join to `mesa` for `size` guests: of its zone, the
   * nearest to it on the floor's order first (its neighbours), until the
   * seats hold the party; [] when its zone has no free table.
   */
  function suggestJoin(mesa, size) {
    const zone = current.filter(m => m.zona === mesa.zona && !m.unida_a).sort(byName);
    const at = zone.findIndex(m => m.id === mesa.id);
    const free = zone.map((m, i) => ({ m, d: Math.abs(i - at) })).filter(x => x.m.estado === "libre" && x.m.id !== mesa.id)
      .sort((a, b) => a.d - b.d || byName(a.m, b.m)).map(x => x.m);
    const picked = [];
    let seats = mesa.plazas;
    for (const m of free) {
      if (seats >= size) break;
      picked.push(m);
      seats += m.plazas;
    }
    return picked;
  }

  /** The join step of the seating dialog: the suggestion marked, any free table of the floor to add or take off. */
  function offerJoin(mesa, body, seat) {
    const picked = new Set(suggestJoin(mesa, body.comensales).map(m => m.id));
    document.getElementById("seat-pick").hidden = true;
    document.getElementById("seat-join").hidden = false;
    document.getElementById("seat-join-title").textContent = body.comensales + " comensales: juntar mesas";
    document.getElementById("seat-join-hint").textContent = mesa.nombre + " tiene " + mesa.plazas
      + " plazas. Se sugieren las mesas libres de al lado; toque para quitar o añadir.";
    const free = current.filter(m => m.estado === "libre" && m.id !== mesa.id)
      .sort((a, b) => (a.zona === mesa.zona ? 0 : 1) - (b.zona === mesa.zona ? 0 : 1) || a.zona.localeCompare(b.zona, "es") || byName(a, b));
    const sum = document.getElementById("seat-join-sum");
    const go = Staff.button("", "go", () => seat(Object.assign({}, body, picked.size ? { unir: [...picked] } : {})));
    go.id = "seat-join-go";
    const update = () => {
      const seats = mesa.plazas + free.filter(m => picked.has(m.id)).reduce((n, m) => n + m.plazas, 0);
      sum.textContent = seats + " plazas para " + body.comensales + " comensales" + (seats < body.comensales ? " (faltan sillas)" : "");
      go.textContent = picked.size ? "Sentar en " + [mesa, ...free.filter(m => picked.has(m.id))].map(m => m.nombre).join(" + ") : "Sentar sin juntar";
    };
    document.getElementById("seat-join-tables").replaceChildren(...free.map(m => {
      const b = Staff.button("", "tile libre", () => {
        if (picked.has(m.id)) picked.delete(m.id); else picked.add(m.id);
        b.setAttribute("aria-pressed", String(picked.has(m.id)));
        update();
      });
      b.dataset.id = String(m.id);
      b.setAttribute("aria-pressed", String(picked.has(m.id)));
      b.setAttribute("aria-label", "Mesa " + m.nombre + ", " + m.plazas + " plazas" + (m.zona ? ", " + m.zona : ""));
      b.append(Staff.el("span", "name", m.nombre), Staff.el("span", "seats", m.plazas + " plazas"));
      if (m.zona !== mesa.zona && m.zona) b.append(Staff.el("span", "state", m.zona));
      return b;
    }));
    document.getElementById("seat-join-actions").replaceChildren(
      Staff.button("← Atrás", "quiet", () => { document.getElementById("seat-pick").hidden = false; document.getElementById("seat-join").hidden = true; }), go);
    update();
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

  return { render, openSeat, stateText, byID, message, suggestJoin, mesas: () => current };
})();
