// The table's own page (/m/{token}, from the QR code on the table): the
// menu as on / (carta.js), the table's name, and while the table is seated
// its check, live from GET /m/{token}/eventos: each line with its state
// (for the waiter, in the kitchen, ready, served), the total, dishes added
// from the menu (the waiter confirms and sends them) and "Pedir la cuenta".
// No account: the link is the key. Loaded before carta.js, which calls
// Mesa.add for a dish. Everything from the API goes in as text.
"use strict";
window.Mesa = (() => {
  const $ = (id) => document.getElementById(id);
  const base = "/m/" + location.pathname.split("/")[2];
  const ESTADO = { pendiente: "Para el camarero", en_espera: "Más tarde", marchada: "En cocina", preparada: "Lista",
                   servida: "Servida", anulada: "Anulada" };
  function render(v) {
    // A view too big for one event comes as {cambiada}: fetched whole.
    if (v && v.cambiada) {
      fetch(base + "/cuenta", { cache: "no-store" }).then(r => r.ok ? r.json() : null).then(w => { if (w) render(w); }, () => {});
      return;
    }
    $("mesa-nombre").textContent = v.mesa;
    document.title = "Mesa " + v.mesa + " · La carta";
    const c = v.cuenta;
    document.body.classList.toggle("sin-cuenta", !c);
    // A check this phone has seen here is remembered a while: when the table is freed after paying,
    // the guest still looking at the page is thanked, not told the table is not open.
    if (c && c.lineas.length > 0) localStorage.setItem(seenKey, String(Date.now()));
    if (!c) {
      $("mesa-estado").textContent = recentlyHere()
        ? "¡Gracias por su visita! Aquí tiene la carta; para pedir otra vez, avise al camarero."
        : "Aquí tiene la carta. Podrá pedir desde aquí cuando el camarero abra la mesa.";
      $("mesa-lineas").replaceChildren();
      $("mesa-total-fila").hidden = $("pide-cuenta").hidden = true;
      return;
    }
    const pagada = c.total > 0 && c.pendiente === 0;
    $("mesa-estado").textContent = c.lineas.length === 0 ? "Elija en la carta y pulse «Pedir»: el camarero lo confirmará."
      : pagada ? "Cuenta pagada. ¡Gracias por su visita!"
      : c.pide_cuenta ? "Cuenta pedida: el camarero viene enseguida." : "";
    $("mesa-lineas").replaceChildren(...c.lineas.map(l => {
      const li = Staff.el("li", "linea " + l.estado);
      li.dataset.estado = l.estado;
      const que = Staff.el("div", "que");
      que.append(Staff.el("span", null, l.cantidad + " × " + l.nombre), Staff.el("span", "precio", Staff.money(l.subtotal)));
      li.append(que);
      const detalle = [...l.opciones.map(o => o.valor), ...(l.notas ? ["«" + l.notas + "»"] : [])];
      if (detalle.length) li.append(Staff.el("div", "opciones", detalle.join(" · ")));
      li.append(Staff.el("span", "estado-linea " + l.estado, ESTADO[l.estado] || l.estado));
      return li;
    }));
    $("mesa-total").textContent = Staff.money(c.total);
    $("mesa-total-fila").hidden = c.lineas.length === 0;
    $("pide-cuenta").hidden = c.lineas.length === 0 || pagada;
    $("pide-cuenta").disabled = c.pide_cuenta;
    $("pide-cuenta").textContent = c.pide_cuenta ? "Cuenta pedida ✓" : "Pedir la cuenta";
  }

  const seenKey = "comanda.mesa.visto." + base;
  /** This phone followed a check at this table in the last 3 hours. */
  function recentlyHere() { return Date.now() - Number(localStorage.getItem(seenKey) || 0) < 3 * 3600 * 1000; }

  function problem(status, error) {
    const code = error && error.code;
    return status === 404 ? "Este enlace ya no es válido: pida la carta al camarero."
      : code === "mesa_sin_cuenta" ? (recentlyHere() ? "Su cuenta ya está cerrada: para pedir otra vez, avise al camarero."
                                                     : "La mesa todavía no está abierta: avise al camarero.")
      : code === "demasiadas_lineas" ? "Ya hay muchos platos esperando al camarero: enseguida viene a confirmarlos."
      : code === "plato_agotado" ? "Ese plato se acaba de agotar."
      : code === "cuenta_cerrada" ? "La cuenta ya está cerrada."
      : code === "base_de_datos_no_disponible" ? "No se pudo guardar ahora: inténtelo en un momento."
      : (error && error.message) || "No se pudo.";
  }

  /** A POST to the link; the table's view after it (or throws a sentence to show). */
  async function post(path, body) {
    let response;
    try {
      response = await fetch(base + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
                                            cache: "no-store" });
    } catch (e) {
      Staff.offline(true);
      throw "Sin conexión con el servidor: no se ha pedido nada.";
    }
    Staff.offline(false);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw problem(response.status, data.error);
    return data;
  }

  function aviso(text) {
    $("mesa-aviso").textContent = text;
    clearTimeout(aviso.timer);
    aviso.timer = setTimeout(() => { $("mesa-aviso").textContent = ""; }, 6000);
  }

  const feed = Staff.live({ stream: base + "/eventos", ticket: false, events: { cuenta: render }, poll: base + "/cuenta", ms: 3000, render });

  $("pide-cuenta").addEventListener("click", async () => {
    try {
      render(await post("/pide-cuenta", {}));
      aviso("Hemos avisado al camarero.");
    } catch (text) { aviso(String(text)); }
  });

  return {
    /** A dish from the menu onto the table's check (carta.js calls it). */
    async add(body, plato) {
      try {
        await post("/lineas", body);
        aviso("Pedido: " + body.cantidad + " × " + plato.nombre + ". El camarero lo confirmará.");
        feed.now();
      } catch (text) { aviso(String(text)); }
      $("mesa").scrollIntoView({ behavior: "smooth", block: "start" });
    },
  };
})();
