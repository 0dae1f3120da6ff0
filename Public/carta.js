// The guests' menu at /: the menu by category with photos (lazy-loaded,
// each photo's address carries its version so its ETag serves it again),
// prices the Spanish way, the allergens in words, search that ignores
// accents as the API does (GET /carta?q=), a "sin …" filter by allergen
// (&trazas=excluir leaves out traces too), sold-out dishes shown as such.
// Ordering: Añadir on a dish (its options asked for), register or log in
// when needed, the order's lines with their quantities, address and phone,
// checkout, then the order's state live from its stream. Made for a phone
// first. Everything from the API goes in as text.
//
// The table's page (/m/{token}, mesa.html) shows the same menu: there a
// dish goes onto the table's check (mesa.js's Mesa.add), with no account.
"use strict";
const $ = (id) => document.getElementById(id);
/** On a table's own page: what mesa.js offers (`add(body)`); else null (online ordering). */
const enMesa = () => window.Mesa || null;
let alergenos = [];   // [{codigo, nombre}]
let loading = 0;

function nombreDe(codigo) { const a = alergenos.find(x => x.codigo === codigo); return a ? a.nombre : codigo; }

/** Text as the search compares it: lower case, no accents ("Pulpo a la Gallega" → "pulpo a la gallega"). */
function fold(text) { return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase(); }

/** The words typed: the server looks for the longest (its `q` is one literal text), the page keeps the dishes with every one, in any order ("pulpo gallega"). */
function palabras() { return fold($("q").value).split(/\s+/).filter(Boolean); }

function query() {
  const params = new URLSearchParams();
  const words = palabras();
  if (words.length) params.set("q", words.reduce((a, b) => (b.length > a.length ? b : a)));
  const sin = [...$("sin").querySelectorAll("input:checked")].map(b => b.value);
  if (sin.length) {
    params.set("sin", sin.join(","));
    if ($("trazas").checked) params.set("trazas", "excluir");
  }
  $("sin-count").textContent = sin.length ? "(" + sin.length + ")" : "";
  const text = params.toString();
  return "/carta" + (text ? "?" + text : "");
}

function card(p) {
  const article = Staff.el("article", "plato" + (p.disponible ? "" : " agotado"));
  article.dataset.id = String(p.id);
  if (p.foto) {
    const img = document.createElement("img");
    img.src = p.foto;
    img.loading = "lazy";
    img.alt = p.nombre;
    img.width = 112;
    img.height = 112;
    article.append(img);
  }
  const body = Staff.el("div", "cuerpo");
  const head = Staff.el("h3");
  head.append(Staff.el("span", "nombre", p.nombre), Staff.el("span", "precio", Staff.money(p.precio)));
  body.append(head);
  if (!p.disponible) body.append(Staff.el("p", "badge", "Agotado hoy"));
  if (p.descripcion) body.append(Staff.el("p", "descripcion", p.descripcion));
  if (p.alergenos.length) body.append(Staff.el("p", "alergenos", "Contiene: " + p.alergenos.map(nombreDe).join(", ")));
  if (p.trazas.length) body.append(Staff.el("p", "trazas", "Puede contener trazas de: " + p.trazas.map(nombreDe).join(", ")));
  if (p.opciones.length) body.append(Staff.el("p", "opciones", p.opciones.map(g => g.nombre).join(" · ")));
  if (p.disponible) {
    const add = Staff.button("Añadir", "go add", () => openPlato(p));
    add.setAttribute("aria-label", "Añadir " + p.nombre);
    body.append(add);
  }
  article.append(body);
  return article;
}

function render(carta) {
  const sections = carta.map(s => {
    const section = Staff.el("section", "tipo");
    const id = "tipo-" + s.tipo.normalize("NFD").replace(/[^A-Za-z0-9]+/g, "-").toLowerCase();
    section.id = id;
    section.append(Staff.el("h2", null, s.tipo), ...s.platos.map(card));
    return { section, tipo: s.tipo, id };
  });
  $("carta").replaceChildren(...sections.map(s => s.section));
  $("tipos").replaceChildren(...sections.map(s => {
    const a = Staff.el("a", null, s.tipo);
    a.href = "#" + s.id;
    return a;
  }));
  // The menu's first paint, for scripts/carta-perf.py (the frame after it is drawn).
  if (!performance.getEntriesByName("carta-pintada").length) {
    requestAnimationFrame(() => setTimeout(() => {
      if (!performance.getEntriesByName("carta-pintada").length) performance.mark("carta-pintada");
    }));
  }
  const count = carta.reduce((n, s) => n + s.platos.length, 0);
  $("resumen").textContent = count === 0 ? "Ningún plato con esa búsqueda y esos filtros." : count === 1 ? "1 plato" : count + " platos";
}

async function load() {
  const mine = ++loading;
  try {
    const response = await fetch(query(), { cache: "no-store" });
    if (!response.ok) throw new Error("status " + response.status);
    const words = palabras();
    const carta = (await response.json()).map(s => ({ tipo: s.tipo, platos: s.platos.filter(p => {
      const hay = fold(p.nombre + " " + p.descripcion);
      return words.every(w => hay.includes(w));
    }) })).filter(s => s.platos.length);
    Staff.offline(false);
    if (mine === loading) render(carta);
  } catch (e) {
    Staff.offline(true);
  }
}

async function start() {
  try {
    alergenos = await (await fetch("/alergenos")).json();
  } catch (e) {
    alergenos = [];
  }
  $("sin").replaceChildren(...alergenos.map(a => {
    const label = Staff.el("label", "chip");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = a.codigo;
    box.addEventListener("change", load);
    label.append(box, document.createTextNode(" " + a.nombre));
    return label;
  }));
  load();
}

let timer = null;
$("q").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(load, 200); });
$("trazas").addEventListener("change", load);
Staff.settings.then(a => {
  if (a && a.nombreRestaurante) {
    $("restaurant").textContent = a.nombreRestaurante;
    document.title = "La carta · " + a.nombreRestaurante;
  }
});
// Ordering.
let plato = null, cantidad = 1, pedido = null, after = null, live = null;
const ESTADOS = { realizado: "Recibido: la cocina lo verá enseguida.", preparado: "Preparado: sale hacia usted.", entregado: "Entregado. ¡Que aproveche!",
                  cancelado: "Cancelado." };

function logged() { return !!sessionStorage.getItem("comanda.token"); }

function openPlato(p) {
  plato = p;
  cantidad = 1;
  $("plato-nombre").textContent = p.nombre + " · " + Staff.money(p.precio);
  $("plato-error").textContent = "";
  $("cantidad").textContent = "1";
  if ($("notas")) $("notas").value = "";
  const grupos = [...p.opciones].sort((a, b) => (b.min > 0) - (a.min > 0));
  $("plato-grupos").replaceChildren(...grupos.map(g => {
    const set = Staff.el("fieldset");
    set.dataset.grupo = String(g.id);
    set.append(Staff.el("legend", null, g.nombre + (g.min > 0 ? " (elija " + (g.min === g.max ? g.min : "de " + g.min + " a " + g.max) + ")"
                                                           : " (opcional" + (g.max > 1 ? ", hasta " + g.max : "") + ")")));
    for (const v of g.valores) {
      const label = Staff.el("label", "opcion");
      const input = document.createElement("input");
      input.type = g.max === 1 ? "radio" : "checkbox";
      input.name = "g" + g.id;
      input.value = String(v.id);
      label.append(input, Staff.el("span", null, v.nombre), Staff.el("span", "extra", v.precio ? "+" + Staff.money(v.precio) : ""));
      set.append(label);
    }
    return set;
  }));
  $("plato").showModal();
}

$("menos").addEventListener("click", () => { cantidad = Math.max(1, cantidad - 1); $("cantidad").textContent = String(cantidad); });
$("mas").addEventListener("click", () => { cantidad = Math.min(100, cantidad + 1); $("cantidad").textContent = String(cantidad); });

$("plato-form").addEventListener("submit", (event) => {
  event.preventDefault();
  for (const g of plato.opciones) {
    const n = $("plato-grupos").querySelectorAll("[data-grupo='" + g.id + "'] input:checked").length;
    if (n < g.min || n > g.max) { $("plato-error").textContent = "Elija " + g.nombre.toLowerCase() + "."; return; }
  }
  const body = { plato_id: plato.id, cantidad, opciones: [...$("plato-grupos").querySelectorAll("input:checked")].map(i => Number(i.value)) };
  $("plato").close();
  if (enMesa()) {
    if ($("notas") && $("notas").value.trim()) body.notas = $("notas").value.trim();
    enMesa().add(body, plato);
    return;
  }
  if (!logged()) { after = () => addLinea(body); openCuenta(); return; }
  addLinea(body);
});

async function addLinea(body) {
  try {
    pedido = await Staff.api("POST", "/pedidos", {});
    await Staff.api("POST", "/pedidos/" + pedido.id + "/lineas", body);
    await refreshPedido();
  } catch (e) {
    if (e.status === 401) { after = () => addLinea(body); openCuenta(); return; }
    alertError(e);
  }
}

function alertError(e) {
  const code = e && e.error && e.error.code;
  $("resumen").textContent = code === "plato_no_disponible" ? "Ese plato se acaba de agotar." : (e.error && e.error.message) || "No se pudo.";
}

async function refreshPedido() {
  try { pedido = await Staff.api("GET", "/pedidos/actual"); } catch (e) { pedido = null; }
  const n = pedido ? pedido.lineas.reduce((t, l) => t + l.cantidad, 0) : 0;
  $("pedido-abrir").hidden = n === 0;
  $("pedido-abrir").textContent = "Mi pedido (" + n + ") · " + (pedido ? Staff.money(pedido.total) : "");
  if ($("pedido").open) renderPedido();
}

function renderPedido() {
  if (!pedido) { $("pedido").close(); return; }
  $("pedido-lineas").replaceChildren(...pedido.lineas.map(l => {
    const li = Staff.el("li");
    li.dataset.id = String(l.id);
    const what = Staff.el("div", "que");
    what.append(Staff.el("span", null, l.cantidad + " × " + l.nombre), Staff.el("span", "precio", Staff.money(l.subtotal)));
    li.append(what);
    if (l.opciones.length) li.append(Staff.el("div", "opciones", l.opciones.map(o => o.valor).join(" · ")));
    const buttons = Staff.el("div", "botones");
    const change = async (n) => {
      try {
        if (n === 0) await Staff.api("DELETE", "/pedidos/" + pedido.id + "/lineas/" + l.id);
        else await Staff.api("PUT", "/pedidos/" + pedido.id + "/lineas/" + l.id, { cantidad: n });
      } catch (e) { $("pedido-error").textContent = (e.error && e.error.message) || "No se pudo."; }
      refreshPedido();
    };
    const less = Staff.button("−", "quiet small", () => change(l.cantidad - 1));
    less.setAttribute("aria-label", "Uno menos de " + l.nombre);
    const more = Staff.button("+", "quiet small", () => change(l.cantidad + 1));
    more.setAttribute("aria-label", "Uno más de " + l.nombre);
    buttons.append(less, more);
    li.append(buttons);
    return li;
  }));
  $("pedido-total").textContent = Staff.money(pedido.total);
}

$("pedido-abrir")?.addEventListener("click", () => { $("pedido-error").textContent = ""; renderPedido(); $("pedido").showModal(); });

$("entrega")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = $("entrega");
  try {
    const placed = await Staff.api("POST", "/pedidos/" + pedido.id + "/checkout",
                                   { direccion: form.direccion.value, telefono: form.telefono.value });
    $("pedido").close();
    pedido = null;
    $("pedido-abrir").hidden = true;
    follow(placed);
  } catch (e) {
    const field = e.error && e.error.field;
    $("pedido-error").textContent = field === "direccion" ? "Escriba la dirección completa (de 5 a 300 caracteres)."
      : field === "telefono" ? "Escriba un teléfono válido, como +34 600 123 456."
      : e.error && e.error.code === "plato_no_disponible" ? "Algún plato se ha agotado: quítelo del pedido."
      : (e.error && e.error.message) || "No se pudo hacer el pedido.";
  }
});

/** The placed order's state, live from its stream (polling while it is down), in its dialog (`open`) and on top of the menu. */
let liveId = null, shown = null;
function follow(placed, open = true) {
  showEstado(placed);
  if (open) $("estado").showModal();
  if (live && liveId === placed.id) return;
  if (live) live.stop();
  live = null;
  liveId = placed.id;
  if (!FINAL.includes(placed.estado)) {
    live = Staff.live({ stream: "/pedidos/" + placed.id + "/eventos", ticket: true, events: { pedido: showEstado },
                        poll: "/pedidos/" + placed.id, ms: 3000, render: showEstado });
  }
}
const FINAL = ["entregado", "rechazado", "cancelado"];

function estadoTexto(p) {
  return p.estado === "aceptado"
    ? "Aceptado — listo hacia las " + (p.listo_estimado ? Staff.clock(new Date(p.listo_estimado)) : "…")
    : p.estado === "rechazado" ? "Rechazado: " + (p.motivo || "la cocina no puede prepararlo ahora.")
    : ESTADOS[p.estado] || p.estado;
}

function showEstado(p) {
  shown = p;
  $("estado-title").textContent = "Su pedido #" + p.id;
  $("estado-texto").textContent = estadoTexto(p);
  $("estado-texto").dataset.estado = p.estado;
  $("estado-lineas").replaceChildren(...p.lineas.map(l => Staff.el("li", null, l.cantidad + " × " + l.nombre)));
  // On top of the menu too, whatever the guest does after closing the dialog.
  $("en-curso").hidden = false;
  $("en-curso").dataset.estado = p.estado;
  $("en-curso-texto").textContent = "Pedido #" + p.id + ": " + estadoTexto(p);
  $("mis-pedidos-abrir").hidden = false;
  if (FINAL.includes(p.estado) && live) { live.stop(); live = null; }
}
$("en-curso")?.addEventListener("click", () => { if (shown) $("estado").showModal(); });

const ESTADO_CORTO = { realizado: "Recibido", aceptado: "Aceptado", preparado: "Preparado", entregado: "Entregado", rechazado: "Rechazado",
                       cancelado: "Cancelado" };

/** "21:30" today, "26/11 21:30" another day (the restaurant's hour). */
function cuando(iso) {
  const d = new Date(iso), today = new Date();
  const day = d.toDateString() === today.toDateString() ? "" : String(d.getDate()).padStart(2, "0") + "/" + String(d.getMonth() + 1).padStart(2, "0") + " ";
  return day + Staff.clock(d);
}

/** After a reload or a return to the menu: the guest's orders, and the one under way followed live. */
async function misPedidos(open) {
  let list;
  try { list = await Staff.api("GET", "/pedidos?limit=20"); } catch (e) { return; }
  $("mis-pedidos-abrir").hidden = list.length === 0;
  $("mis-pedidos-lista").replaceChildren(...list.map(p => {
    const li = Staff.el("li"), b = document.createElement("button");
    b.type = "button";
    b.dataset.id = String(p.id);
    const head = Staff.el("span", "cabeza");
    head.append(Staff.el("span", null, "Pedido #" + p.id + " · " + cuando(p.fecha)), Staff.el("span", "estado-pedido", ESTADO_CORTO[p.estado] || p.estado));
    b.append(head, Staff.el("span", null, p.num_platos + (p.num_platos === 1 ? " plato · " : " platos · ") + Staff.money(p.total)));
    b.addEventListener("click", async () => {
      try { const full = await Staff.api("GET", "/pedidos/" + p.id); $("mis-pedidos").close(); follow(full); } catch (e) { /* the notice says it */ }
    });
    li.append(b);
    return li;
  }));
  if (list.length === 0) $("mis-pedidos-lista").append(Staff.el("li", "resumen", "Todavía no ha hecho ningún pedido."));
  if (open) $("mis-pedidos").showModal();
  const underWay = list.find(p => !FINAL.includes(p.estado));
  if (underWay && liveId !== underWay.id) {
    try { follow(await Staff.api("GET", "/pedidos/" + underWay.id), false); } catch (e) { /* shown at the next look */ }
  }
}
$("mis-pedidos-abrir")?.addEventListener("click", () => misPedidos(true));

// Registering or logging in, only when it is needed to order.
function openCuenta() {
  $("cuenta-error").textContent = "";
  $("cuenta").showModal();
}

$("cuenta-form")?.addEventListener("change", () => {
  const crear = $("cuenta-form").querySelector("input[name=modo]:checked").value === "crear";
  $("campo-nombre").hidden = !crear;
  $("cuenta-title").textContent = crear ? "Cree su cuenta para pedir" : "Para pedir, entre o cree su cuenta";
});

$("cuenta-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = $("cuenta-form");
  const crear = form.querySelector("input[name=modo]:checked").value === "crear";
  const post = (path, body) => fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  try {
    if (crear) {
      const made = await post("/usuarios", { nombre: form.nombre.value, login: form.login.value, password: form.password.value });
      if (!made.ok) {
        const e = (await made.json()).error || {};
        $("cuenta-error").textContent = e.code === "login_taken" ? "Ese usuario ya existe: elija otro o entre con él."
          : e.field === "password" ? "La contraseña necesita 8 caracteres o más."
          : e.field === "nombre" ? "Escriba su nombre." : e.field === "login" ? "Escriba un usuario (sin espacios al principio ni al final)."
          : made.status === 503 ? "El restaurante no puede guardar datos ahora: inténtelo en un momento." : "No se pudo crear la cuenta.";
        return;
      }
    }
    const session = await post("/sesiones", { login: form.login.value, password: form.password.value });
    if (!session.ok) {
      $("cuenta-error").textContent = session.status === 401 ? "Usuario o contraseña incorrectos."
        : session.status === 429 ? "Demasiados intentos: espere unos minutos." : "No se pudo entrar ahora: inténtelo en un momento.";
      return;
    }
    sessionStorage.setItem("comanda.token", (await session.json()).token);
    $("cuenta").close();
    form.reset();
    const next = after;
    after = null;
    if (next) next();
  } catch (e) {
    $("cuenta-error").textContent = "Sin conexión con el servidor.";
  }
});

for (const d of document.querySelectorAll("dialog")) {
  for (const b of d.querySelectorAll("[data-close]")) b.addEventListener("click", () => d.close());
}
if (!enMesa() && logged()) { refreshPedido(); misPedidos(false); }

// The menu changes (sold out, prices): look again every minute while the page is open.
setInterval(load, 60000);
start();
