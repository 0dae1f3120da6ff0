// The waiter's phone: the floor (floor.js's tiles, live from
// GET /mesas/eventos), and a table's check (live from GET /cuentas/eventos):
// its lines by course with their state, the menu to add from (search,
// categories, a dish's options asked for, required groups first, notes,
// course, quantity), Enviar, Marchar for each held course, a ready line
// served with one tap, the pre-bill, Liberar once nothing is owed. The page
// follows the address (#mesa-ID), so the phone's back button goes back to
// the floor. Everything from the API goes in as text.
"use strict";
const POLL_MS = 2000;
const CURSOS = ["Primeros", "Segundos", "Postres", "Cuarto", "Quinto"];
const MARCHAR = ["primeros", "segundos", "postres", "el cuarto", "el quinto"];
const ESTADO = { pendiente: "Sin enviar", en_espera: "En espera", marchada: "En cocina", preparada: "Lista",
                 servida: "Servida", anulada: "Anulada" };
/** The course a dish of a category is usually served in. */
const CURSO_DE = { Principales: 2, Segundos: 2, Postres: 3 };

const $ = (id) => document.getElementById(id);
let floorFeed = null, checksFeed = null;
const checks = new Map();    // open checks by id, from the stream
let mesaID = null;           // the table whose check is shown, or null on the floor
let sueltaID = null;         // or the open check shown that no table holds (#cuenta-N)
let shown = null;            // the check shown
let carta = [];              // [{tipo, platos}] of the last menu read
let tipo = null;             // the category picked in the menu, or null for all

// Views: the floor, or a table's check (the address says which).
function route() {
  const match = /^#mesa-(\d+)$/.exec(location.hash);
  const suelta = /^#cuenta-(\d+)$/.exec(location.hash);
  mesaID = match ? Number(match[1]) : null;
  sueltaID = suelta ? Number(suelta[1]) : null;
  const onFloor = mesaID === null && sueltaID === null;
  $("floor").hidden = !onFloor;
  $("check").hidden = $("actions").hidden = onFloor;
  $("back").hidden = onFloor;
  $("logout").hidden = !onFloor;   // room for the table's name on a phone
  for (const d of document.querySelectorAll("dialog")) if (d.open) d.close();
  if (onFloor) { $("title").textContent = "Mesas"; shown = null; markFloor(); return; }
  $("loose").hidden = true;
  $("check-error").textContent = "";
  showCheck();
}

function mesaOf(id) {
  const mesa = Floor.byID(id);
  return mesa && mesa.unida_a ? Floor.byID(mesa.unida_a) || mesa : mesa;
}

/** An open check that no table holds (#cuenta-N): from the stream's list, else read once. */
async function showLoose() {
  const id = sueltaID;
  $("title").textContent = "Cuenta";
  if (checks.has(id)) shown = checks.get(id);
  else {
    try { shown = await Staff.api("GET", "/cuentas/" + id); }
    catch (e) { if (e.status !== 401) $("check-error").textContent = message(e); return; }
  }
  if (sueltaID !== id) return;
  $("title").textContent = "Cuenta · " + shown.mesa;
  renderCheck();
}

/** The open checks that no table on the floor holds (the floor must be known). */
function looseChecks() {
  const mesas = Floor.mesas();
  if (!mesas.length) return [];
  const held = new Set(mesas.map(m => m.cuenta_id).filter(Boolean));
  return [...checks.values()].filter(c => c.estado === "abierta" && !held.has(c.id)).sort((a, b) => a.id - b.id);
}

/** The check of the table shown: from the stream's list, else read once. */
async function showCheck() {
  if (sueltaID !== null) return showLoose();
  const mesa = mesaOf(mesaID);
  if (!mesa) { $("title").textContent = "Mesa"; return; }
  $("title").textContent = "Mesa " + mesa.nombre;
  if (mesa.estado !== "ocupada" || !mesa.cuenta_id) {
    shown = null;
    renderCheck();
    return;
  }
  if (checks.has(mesa.cuenta_id)) { shown = checks.get(mesa.cuenta_id); renderCheck(); return; }
  try {
    const cuenta = await Staff.api("GET", "/cuentas/" + mesa.cuenta_id);
    if (mesaOf(mesaID) === mesa) { shown = cuenta; renderCheck(); }
  } catch (e) { if (e.status !== 401) $("check-error").textContent = message(e); }
}

function lineRow(l) {
  const li = Staff.el("li", "line " + l.estado);
  li.dataset.id = String(l.id);
  li.dataset.estado = l.estado;
  const top = Staff.el("div", "top");
  top.append(Staff.el("span", "qty", l.cantidad + " ×"), Staff.el("span", "name", l.nombre), Staff.el("span", "amount", Staff.money(l.subtotal)));
  li.append(top);
  for (const o of l.opciones) li.append(Staff.el("div", "option", "· " + o.valor + (o.precio ? " (+" + Staff.money(o.precio) + ")" : "")));
  if (l.notas) li.append(Staff.el("div", "note", "«" + l.notas + "»"));
  const bottom = Staff.el("div", "bottom");
  bottom.append(Staff.el("span", "state " + l.estado, (l.origen === "cliente" ? "Cliente · " : "") + ESTADO[l.estado]));
  if (l.descuento) {
    bottom.append(Staff.el("span", "descuento", l.descuento.porcentaje === 100 ? "Invitación" : "Dto. " + l.descuento.porcentaje + " %"));
  }
  if ((shown.lineas_pagadas || []).includes(l.id)) bottom.append(Staff.el("span", "pagada", "✓ Cobrada"));
  if (l.estado === "pendiente") {
    bottom.append(
      Staff.button("−", "quiet small", () => change(l, { cantidad: l.cantidad - 1 })),
      Staff.button("+", "quiet small", () => change(l, { cantidad: l.cantidad + 1 })),
      Staff.button("Quitar", "bad small", () => act("DELETE", "/cuentas/" + shown.id + "/lineas/" + l.id)));
    bottom.querySelector("button").setAttribute("aria-label", "Uno menos de " + l.nombre);
    bottom.querySelectorAll("button")[1].setAttribute("aria-label", "Uno más de " + l.nombre);
  } else if (l.estado === "preparada" && l.comanda_id) {
    bottom.append(Staff.button("Servida ✓", "ok small serve", () => act("POST", "/cuentas/" + shown.id + "/comandas/" + l.comanda_id + "/servida")));
  }
  // The manager's corrections of a sent line (only a manager sees them: the
  // server allows them to no one else, and a waiter hands the phone over or
  // calls the manager, who logs in on theirs).
  if (esGerente && l.estado !== "pendiente" && l.estado !== "anulada" && !(shown.facturas || []).length) {
    const name = l.nombre;
    bottom.append(
      Staff.button("Invitar", "quiet small", () => ajustar(l, "invitar")),
      Staff.button("Descuento", "quiet small", () => ajustar(l, "descuento")),
      Staff.button("Anular", "bad small", () => ajustar(l, "anular")));
    const buttons = bottom.querySelectorAll("button");
    buttons[buttons.length - 3].setAttribute("aria-label", "Invitar a " + name);
    buttons[buttons.length - 2].setAttribute("aria-label", "Descuento en " + name);
    buttons[buttons.length - 1].setAttribute("aria-label", "Anular " + name);
  } else if (esGerente && l.estado !== "pendiente" && l.estado !== "anulada") {
    bottom.append(Staff.button("Anular", "bad small", () => ajustar(l, "anular")));
    bottom.lastChild.setAttribute("aria-label", "Anular " + l.nombre);
  }
  li.append(bottom);
  return li;
}

function renderCheck() {
  if (shown && reopened.delete(shown.id)) renderNeeds();
  const lines = $("lines");
  if (!shown) {
    const mesa = mesaOf(mesaID);
    $("check-info").textContent = mesa ? Floor.stateText(mesa) : "";
    lines.replaceChildren(Staff.el("p", "empty", mesa && mesa.estado === "libre" ? "La mesa está libre." : "Sin cuenta abierta."));
    $("check-total").textContent = "";
    $("check-calls").hidden = true;
    for (const id of ["add", "send", "prebill", "free", "pay", "check-tools"]) $(id).hidden = true;
    $("check-paid").hidden = true;
    $("invoices").replaceChildren();
    $("fire").replaceChildren();
    const mesaNow = mesaOf(mesaID);
    if (mesaNow && mesaNow.estado !== "ocupada") {
      lines.append(Staff.button(mesaNow.estado === "libre" ? "Sentar" : "Limpia", "go", () => openTable(mesaNow.id)));
    }
    return;
  }
  const c = shown;
  // Who serves it (not who seated it: a host seats without a waiter); any waiter can take the table.
  const who = c.camarero ? " · atiende " + c.camarero.nombre : " · sin camarero";
  $("atender").hidden = c.estado !== "abierta" || (c.camarero && c.camarero.id === yo);
  $("check-info").textContent = c.comensales + " comensales · desde las " + Staff.clock(new Date(c.abierta)) + who
    + (c.estado !== "abierta" ? " · " + (c.estado === "cobrada" ? "cobrada" : "anulada") : "");
  const calls = guestCalls(c);
  $("check-calls").hidden = calls.length === 0;
  $("check-calls").textContent = "La mesa: " + calls.join(" · ");
  const sections = [];
  for (let curso = 1; curso <= 5; curso++) {
    const of = c.lineas.filter(l => l.curso === curso);
    if (of.length === 0) continue;
    const section = Staff.el("section", "course");
    section.dataset.curso = String(curso);
    const ul = Staff.el("ul");
    ul.append(...of.map(lineRow));
    section.append(Staff.el("h2", null, CURSOS[curso - 1]), ul);
    sections.push(section);
  }
  if (sections.length === 0) sections.push(Staff.el("p", "empty", "Nada todavía: pulse «Añadir»."));
  lines.replaceChildren(...sections);
  $("check-total").textContent = Staff.money(c.total);
  const open = c.estado === "abierta";
  const pending = c.lineas.filter(l => l.estado === "pendiente");
  $("add").hidden = !open;
  $("prebill").hidden = false;
  $("send").hidden = !open || pending.length === 0;
  $("send").textContent = "Enviar (" + pending.reduce((n, l) => n + l.cantidad, 0) + ")";
  const held = [...new Set(c.lineas.filter(l => l.estado === "en_espera").map(l => l.curso))].sort();
  $("fire").replaceChildren(...held.map(curso => {
    const b = Staff.button("Marchar " + MARCHAR[curso - 1], "warn", () => act("POST", "/cuentas/" + c.id + "/marchar", { curso }));
    b.dataset.curso = String(curso);
    return b;
  }));
  $("free").hidden = sueltaID !== null || !(c.estado === "cobrada" || (open && c.total === 0));
  // Cobrar once nothing is left to send (the server would refuse it: lineas_sin_enviar).
  $("pay").hidden = !(open && c.pendiente > 0 && pending.length === 0);
  $("pay").textContent = "Cobrar " + Staff.money(c.pendiente);
  // A seated party moves to another free table, or gets free tables joined (at its table only).
  $("check-tools").hidden = !open;
  $("unir").hidden = sueltaID !== null;
  $("check-paid").hidden = c.cobrado === 0 && c.propinas === 0;
  $("check-paid").textContent = "Cobrado " + Staff.money(c.cobrado) + " · Pendiente " + Staff.money(c.pendiente)
    + (c.propinas ? " · Propinas " + Staff.money(c.propinas) : "");
  $("invoices").replaceChildren(...c.facturas.map((id, i) => {
    const b = Staff.button("Factura " + (i + 1), "quiet small", () => openFactura(id));
    b.dataset.factura = String(id);
    return b;
  }));
}

// Taking payment: everything, equal shares, some lines or an amount; cash with its change, card or other; a tip apart.
const cobro = { pendiente: 0, partes: 2 };
/** After a payment of one of n shares, the next guest's is one of n − 1 (by check). */
const nextShares = new Map();

function modo() { return $("cobro-form").querySelector("input[name=modo]:checked").value; }
function metodo() { return $("cobro-form").querySelector("input[name=metodo]:checked").value; }

/** The amount this payment takes, in cents (null while the amount typed is not one). */
function cobroImporte() {
  switch (modo()) {
    case "partes": return Math.floor((2 * cobro.pendiente + cobro.partes) / (2 * cobro.partes));
    case "lineas": return [...$("modo-lineas").querySelectorAll("input:checked:not(:disabled)")]
      .reduce((sum, box) => sum + Number(box.dataset.cents), 0);
    case "importe": return Staff.cents($("importe").value);
    default: return cobro.pendiente;
  }
}

function updateCobro() {
  for (const m of ["partes", "lineas", "importe"]) $("modo-" + m).hidden = modo() !== m;
  $("partes").textContent = String(cobro.partes);
  const importe = cobroImporte();
  $("cobro-importe").textContent = importe === null ? "—" : Staff.money(importe / 100);
  // Above 3.000 € a simplified invoice may not be issued: the customer's data are needed.
  const grande = (importe || 0) > LIMITE_SIMPLIFICADA;
  if (grande && !$("con-cliente").checked) { $("con-cliente").checked = true; $("cobro-cliente").hidden = false; }
  $("con-cliente").disabled = grande;
  $("cobrar").textContent = importe ? "Cobrar " + Staff.money(importe / 100) : "Cobrar";
  const cash = metodo() === "efectivo";
  $("efectivo").hidden = !cash;
  const propina = $("propina").value.trim() === "" ? 0 : Staff.cents($("propina").value);
  if (cash) {
    const given = Staff.cents($("entregado").value);
    const due = (importe || 0) + (propina || 0);
    $("cambio").textContent = given === null ? "—" : given >= due ? Staff.money((given - due) / 100) : "Faltan " + Staff.money((due - given) / 100);
    // What a guest hands over for 52,45 €: the exact amount, 55, 60 or 100 (the amount rounded up to 5, 10, 20 and
    // 50 euros, and a 100 € note), each once, at most five.
    const up = (step) => Math.ceil(due / step) * step;
    const notes = [...new Set([up(500), up(1000), up(2000), up(5000), 10000])].filter(v => v > due).sort((a, b) => a - b).slice(0, 4);
    $("billetes").replaceChildren(...[due, ...notes].map((v, i) =>
      Staff.button(i === 0 ? "Justo" : Staff.money(v / 100), "quiet small", () => { $("entregado").value = (v / 100).toFixed(2).replace(".", ","); updateCobro(); })));
  }
}

function openCobro() {
  if (!shown) return;
  cobro.pendiente = Math.round(shown.pendiente * 100);
  cobro.partes = nextShares.get(shown.id) || Math.max(2, Math.min(shown.comensales || 2, 50));
  $("cobro-mesa").textContent = shown.mesa;
  $("cobro-pendiente").textContent = Staff.money(shown.pendiente);
  $("cobro-form").reset();
  $("cobro-error").textContent = "";
  const pagadas = new Set(shown.lineas_pagadas || []);
  $("modo-lineas").replaceChildren(...shown.lineas.filter(l => l.estado !== "anulada" && l.estado !== "pendiente").map(l => {
    const label = Staff.el("label", "choice");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = String(l.id);
    box.dataset.cents = String(Math.round(l.subtotal * 100));
    // Already paid by lines: shown ticked and not offered again.
    if (pagadas.has(l.id)) { box.checked = true; box.disabled = true; box.dataset.pagada = "1"; label.classList.add("pagada"); }
    box.addEventListener("change", updateCobro);
    label.append(box, Staff.el("span", null, l.cantidad + " × " + l.nombre + (pagadas.has(l.id) ? " (cobrada)" : "")),
                 Staff.el("span", "extra", Staff.money(l.subtotal)));
    return label;
  }));
  cobroCliente.clear();
  $("con-cliente").checked = false;
  $("cobro-cliente").hidden = true;
  updateCobro();
  $("cobro").showModal();
}

function cobroMessage(e) {
  const code = e && e.error && e.error.code, field = e && e.error && e.error.field;
  const messages = {
    lineas_sin_enviar: "Hay líneas sin enviar a cocina: envíelas o quítelas antes de cobrar.",
    empresa_sin_configurar: "Falta configurar la empresa (su NIF) para emitir facturas: avise al gerente.",
    nada_que_cobrar: "No queda nada por cobrar en esta cuenta.",
  };
  const fields = {
    importe: "El importe va de 0,01 € a lo pendiente, con dos decimales como mucho.",
    entregado: "Lo entregado no cubre el importe y la propina.",
    lineas: "Alguna de esas líneas ya está cobrada (o su importe ya se cobró a partes): cobre un importe.",
    cliente: "Por encima de 3.000 € hace falta factura completa: marque «Factura completa» y escriba los datos del cliente.",
    "cliente.nif": "Ese NIF no es válido: revise sus números y la letra.",
    "cliente.nombre": "Escriba el nombre o la razón social del cliente (hasta 120 caracteres).",
    "cliente.direccion": "Escriba la dirección del cliente (hasta 200 caracteres).",
    propina: "La propina va de 0 a 1000 €, con dos decimales como mucho.",
    partes: "Las partes van de 2 a 50.",
  };
  return messages[code] || (code === "validation_failed" && fields[field]) || message(e);
}

$("cobro-form").addEventListener("input", (event) => {
  if ($("cobro-cliente").contains(event.target)) $("cobro-error").textContent = "";
  updateCobro();
});
$("partes-menos").addEventListener("click", () => { cobro.partes = Math.max(2, cobro.partes - 1); updateCobro(); });
$("partes-mas").addEventListener("click", () => { cobro.partes = Math.min(50, cobro.partes + 1); updateCobro(); });
/** One payment in flight at a time: Cobrar is off until it is answered. */
let paying = false;

/** A new `Idempotency-Key` for one tap of Cobrar (128 random bits; works on plain http too). */
function tapKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
}

$("cobro-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!shown || paying) return;
  const body = { metodo: metodo() };
  const m = modo();
  if (m === "partes") body.partes = cobro.partes;
  if (m === "lineas") {
    body.lineas = [...$("modo-lineas").querySelectorAll("input:checked:not(:disabled)")].map(b => Number(b.value));
    if (body.lineas.length === 0) { $("cobro-error").textContent = "Marque las líneas que se cobran."; return; }
  }
  if (m === "importe") {
    const importe = Staff.cents($("importe").value);
    if (importe === null || importe === 0) { $("cobro-error").textContent = fields_importe(); return; }
    body.importe = importe / 100;
  }
  if ($("propina").value.trim() !== "") {
    const propina = Staff.cents($("propina").value);
    if (propina === null) { $("cobro-error").textContent = "Escriba la propina en euros, como 2,50."; return; }
    body.propina = propina / 100;
  }
  if ($("con-cliente").checked) {
    const cliente = cobroCliente.read();
    if (!cliente) { $("cobro-error").textContent = "Revise los datos del cliente para la factura completa."; return; }
    body.cliente = cliente;
  }
  if (body.metodo === "efectivo" && $("entregado").value.trim() !== "") {
    const given = Staff.cents($("entregado").value);
    if (given === null) { $("cobro-error").textContent = "Escriba lo entregado en euros, como 50."; return; }
    body.entregado = given / 100;
  }
  // A double tap pays once: the button is off while this payment is in
  // flight, and the server issues nothing twice for one tap's key.
  paying = true;
  $("cobrar").disabled = true;
  try {
    const result = await Staff.api("POST", "/cuentas/" + shown.id + "/cobros", body, { "Idempotency-Key": tapKey() });
    if (body.partes && body.partes > 2) nextShares.set(shown.id, body.partes - 1); else nextShares.delete(shown.id);
    $("cobro").close();
    oneCheck(result.cuenta);
    openFactura(result.factura.id, result.cobro);
  } catch (e) {
    if (e.status !== 401) $("cobro-error").textContent = cobroMessage(e);
    const field = e && e.error && e.error.field;
    if (field && field.startsWith("cliente.")) cobroCliente.refuse(field, cobroMessage(e));
    if (field === "cliente") { $("con-cliente").checked = true; $("cobro-cliente").hidden = false; }
  } finally {
    paying = false;
    $("cobrar").disabled = false;
  }
});

function fields_importe() { return "Escriba un importe en euros, como 33,33."; }

/** An invoice: its ticket and its QR code, and the change given (big) right after a cash payment. */
async function openFactura(id, pago) {
  try {
    const [factura, ticket] = await Promise.all([Staff.api("GET", "/facturas/" + id), Staff.api("GET", "/facturas/" + id + "/ticket")]);
    $("factura-numero").textContent = factura.numero + (factura.estado === "anulada" ? " (anulada)" : factura.estado === "sustituida" ? " (sustituida)" : "");
    $("factura-completa").hidden = !(factura.tipo === "F2" && factura.estado === "emitida");
    facturaShown = factura.id;
    choosePrinter("factura");
    $("factura-completa").onclick = () => openCompleta(factura);
    $("factura-ticket").textContent = ticket;
    const change = $("factura-cambio");
    change.hidden = !(pago && pago.cambio !== null);
    if (pago && pago.cambio !== null) change.textContent = "Cambio: " + Staff.money(pago.cambio);
    const img = $("factura-qr");
    if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
    img.src = await Staff.image("/facturas/" + id + "/qr.png");
    $("factura").showModal();
    // Opened at its top, the change to give in sight (not scrolled to the first button at the bottom).
    $("factura-title").focus({ preventScroll: true });
    $("factura").scrollTop = 0;
  } catch (e) {
    if (e.status !== 401) toast("action-error", message(e));
  }
}

$("factura-imprimir").addEventListener("click", () => {
  const w = window.open("", "_blank", "width=420,height=760");
  if (!w) return;
  const img = w.document.createElement("img");
  img.src = $("factura-qr").src;
  img.style.width = "200px";
  const pre = w.document.createElement("pre");
  pre.textContent = $("factura-ticket").textContent;
  pre.style.font = "14px monospace";
  w.document.body.append(pre, img);
  img.onload = () => w.print();
});

// A full invoice's customer: NIF, name and address, the NIF checked as it is typed.
const LIMITE_SIMPLIFICADA = 300000;

/** A Spanish NIF, NIE or CIF with its check character (the server's own rule). */
function nifValido(text) {
  const c = text.trim().toUpperCase();
  if (!/^[0-9A-Z]{9}$/.test(c)) return false;
  const letters = "TRWAGMYFPDXBNJZSQVHLCKE";
  if (/^[0-9]{8}[A-Z]$/.test(c)) return letters[Number(c.slice(0, 8)) % 23] === c[8];
  if (/^[XYZ][0-9]{7}[A-Z]$/.test(c)) return letters[Number("XYZ".indexOf(c[0]) + c.slice(1, 8)) % 23] === c[8];
  if (!/^[ABCDEFGHJKLMNPQRSUVW][0-9]{7}[0-9A-J]$/.test(c)) return false;
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(c[1 + i]);
    sum += i % 2 === 1 ? d : Math.floor(d * 2 / 10) + (d * 2) % 10;
  }
  const control = (10 - sum % 10) % 10, letter = "JABCDEFGHI"[control];
  if ("ABEH".includes(c[0])) return c[8] === String(control);
  if ("KLMNPQRSW".includes(c[0])) return c[8] === letter;
  return c[8] === String(control) || c[8] === letter;
}

/** The three fields of a customer inside `container` (ids prefixed): read() answers the customer, or null after saying what is wrong. */
function clienteForm(container, prefix) {
  const field = (name, label, attrs) => {
    const wrap = Staff.el("label", "field");
    const input = document.createElement("input");
    input.id = prefix + "-" + name;
    input.autocomplete = "off";
    for (const [k, v] of Object.entries(attrs)) input.setAttribute(k, v);
    const hint = Staff.el("span", "campo-error");
    hint.id = prefix + "-" + name + "-error";
    hint.setAttribute("aria-live", "polite");
    input.setAttribute("aria-describedby", hint.id);
    wrap.append(label, input, hint);
    return { wrap, input, hint };
  };
  const nif = field("nif", "NIF / NIE / CIF", { maxlength: "12", autocapitalize: "characters", spellcheck: "false" });
  const nombre = field("nombre", "Nombre o razón social", { maxlength: "120" });
  const direccion = field("direccion", "Dirección", { maxlength: "200" });
  container.replaceChildren(nif.wrap, nombre.wrap, direccion.wrap);
  const checkNif = () => {
    const v = nif.input.value.trim();
    const ok = nifValido(v);
    nif.input.setAttribute("aria-invalid", String(v.length > 0 && !ok));
    nif.hint.className = "campo-error" + (ok ? " bien" : "");
    nif.hint.textContent = v.length === 0 ? "" : ok ? "✓ NIF correcto" : v.replace(/\s/g, "").length < 9 ? "Faltan caracteres" : "✗ La letra o el número de control no cuadra";
    return ok;
  };
  nif.input.addEventListener("input", checkNif);
  for (const f of [nombre, direccion]) {
    f.input.addEventListener("input", () => {
      if (f.input.value.trim() !== "") { f.hint.textContent = ""; f.input.removeAttribute("aria-invalid"); }
    });
  }
  return {
    clear() { for (const f of [nif, nombre, direccion]) { f.input.value = ""; f.hint.textContent = ""; f.input.removeAttribute("aria-invalid"); } },
    /** Says which field the server refused. */
    refuse(name, text) {
      const f = { "cliente.nif": nif, "cliente.nombre": nombre, "cliente.direccion": direccion }[name];
      if (f) { f.hint.className = "campo-error"; f.hint.textContent = text; f.input.setAttribute("aria-invalid", "true"); f.input.focus(); }
    },
    read() {
      let ok = checkNif();
      if (!ok) { if (!nif.hint.textContent) nif.hint.textContent = "Escriba el NIF del cliente"; nif.input.focus(); }
      for (const [f, what] of [[nombre, "Escriba el nombre o la razón social"], [direccion, "Escriba la dirección"]]) {
        const empty = f.input.value.trim() === "";
        f.hint.className = "campo-error";
        f.hint.textContent = empty ? what : "";
        f.input.setAttribute("aria-invalid", String(empty));
        if (empty && ok) f.input.focus();
        if (empty) ok = false;
      }
      return ok ? { nif: nif.input.value.trim().toUpperCase(), nombre: nombre.input.value.trim(), direccion: direccion.input.value.trim() } : null;
    },
  };
}

const cobroCliente = clienteForm($("cobro-cliente"), "cobro-cliente");
const completaCliente = clienteForm($("completa-cliente"), "completa-cliente");
$("con-cliente").addEventListener("change", () => {
  $("cobro-cliente").hidden = !$("con-cliente").checked;
  if ($("con-cliente").checked) $("cobro-cliente-nif").focus();
});

/** A full invoice (F3) replacing a simplified one already issued. */
let completaDe = null;
function openCompleta(factura) {
  completaDe = factura;
  $("completa-numero").textContent = factura.numero;
  $("completa-error").textContent = "";
  completaCliente.clear();
  $("factura").close();
  $("completa").showModal();
  $("completa-cliente-nif").focus();
}
$("completa-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!completaDe) return;
  const cliente = completaCliente.read();
  if (!cliente) return;
  $("completa-si").disabled = true;
  try {
    const f3 = await Staff.api("POST", "/facturas/" + completaDe.id + "/completa", { cliente });
    $("completa").close();
    refresh();
    openFactura(f3.id);
  } catch (e) {
    if (e.status === 401) return;
    const code = e.error && e.error.code, field = e.error && e.error.field;
    if (code === "validation_failed" && field && field.startsWith("cliente.")) completaCliente.refuse(field, cobroMessageOf(field));
    else $("completa-error").textContent = {
      factura_sustituida: "Esa factura ya se sustituyó por una completa.",
      factura_anulada: "Esa factura está anulada.",
      factura_no_simplificada: "Esa factura ya es completa.",
    }[code] || message(e);
  } finally {
    $("completa-si").disabled = false;
  }
});
function cobroMessageOf(field) { return cobroMessage({ error: { code: "validation_failed", field } }); }

// Moving a seated party to another free table, or joining free tables to it.
function freeTables() {
  const here = mesaOf(mesaID);
  const zona = here ? here.zona : null;
  return Floor.mesas().filter(m => m.estado === "libre")
    .sort((a, b) => (a.zona === zona ? 0 : 1) - (b.zona === zona ? 0 : 1) || a.zona.localeCompare(b.zona, "es")
      || a.nombre.localeCompare(b.nombre, "es", { numeric: true }));
}

function openMesas(modo) {
  if (!shown) return;
  const libres = freeTables();
  const picked = new Set();
  $("mesas-title").textContent = (modo === "mover" ? "Mover " : "Unir mesas a ") + shown.mesa;
  $("mesas-hint").textContent = modo === "mover" ? "Elija la mesa libre a la que pasa el grupo (" + shown.comensales + " comensales)."
    : "Marque las mesas libres que se juntan a " + shown.mesa + " para el grupo.";
  $("mesas-error").textContent = "";
  $("mesas-si").hidden = modo === "mover";
  const here = mesaOf(mesaID);
  const resumen = () => {
    const plazas = (here ? here.plazas : 0) + libres.filter(m => picked.has(m.id)).reduce((n, m) => n + m.plazas, 0);
    $("mesas-resumen").textContent = modo === "mover" ? "" : picked.size === 0 ? "Ninguna mesa marcada."
      : plazas + " plazas para " + shown.comensales + " comensales";
    $("mesas-si").disabled = picked.size === 0;
    $("mesas-si").textContent = picked.size ? "Unir " + picked.size + (picked.size === 1 ? " mesa" : " mesas") : "Unir";
  };
  const zones = new Map();
  for (const m of libres) { if (!zones.has(m.zona)) zones.set(m.zona, []); zones.get(m.zona).push(m); }
  if (libres.length === 0) $("mesas-libres").replaceChildren(Staff.el("p", "empty", "No hay mesas libres ahora."));
  else $("mesas-libres").replaceChildren(...[...zones].map(([zona, list]) => {
    const section = Staff.el("section", "zone");
    const tiles = Staff.el("div", "tiles");
    tiles.append(...list.map(m => {
      const b = Staff.button("", "tile libre", async () => {
        if (modo === "mover") return mover(m);
        if (picked.has(m.id)) picked.delete(m.id); else picked.add(m.id);
        b.setAttribute("aria-pressed", String(picked.has(m.id)));
        resumen();
      });
      b.dataset.id = String(m.id);
      b.append(Staff.el("span", "name", m.nombre), Staff.el("span", "seats", m.plazas + " plazas"));
      b.setAttribute("aria-label", "Mesa " + m.nombre + ", " + m.plazas + " plazas");
      if (modo === "unir") b.setAttribute("aria-pressed", "false");
      return b;
    }));
    section.append(Staff.el("h3", null, zona || "Sala"), tiles);
    return section;
  }));
  $("mesas-si").onclick = async () => {
    try {
      oneCheck(await Staff.api("POST", "/cuentas/" + shown.id + "/unir", { mesas: [...picked] }));
      $("mesas-dialog").close();
      if (floorFeed) floorFeed.now();
    } catch (e) { if (e.status !== 401) $("mesas-error").textContent = message(e); }
  };
  resumen();
  $("mesas-dialog").showModal();
}

async function mover(m) {
  try {
    const moved = await Staff.api("POST", "/cuentas/" + shown.id + "/mover", { mesa_id: m.id });
    $("mesas-dialog").close();
    oneCheck(moved);
    if (floorFeed) floorFeed.now();
    location.hash = "#mesa-" + m.id;
  } catch (e) { if (e.status !== 401) $("mesas-error").textContent = message(e); }
}
$("mover").addEventListener("click", () => openMesas("mover"));
$("unir").addEventListener("click", () => openMesas("unir"));

// The checks' stream: the open ones on connect, then each changed one.
function allChecks(list) {
  // A check gone from the open ones has closed; back among them, it was reopened (a manager's void).
  const open = new Set(list.map(c => c.id));
  for (const id of checks.keys()) if (!open.has(id)) closedChecks.add(id);
  for (const c of list) if (closedChecks.has(c.id)) { closedChecks.delete(c.id); reopened.set(c.id, Date.now()); }
  checks.clear();
  for (const c of list) checks.set(c.id, c);
  if (shown && checks.has(shown.id)) { shown = checks.get(shown.id); renderCheck(); }
  else if ((mesaID !== null || sueltaID !== null) && !shown) showCheck();
  markFloor();
}

function oneCheck(c) {
  // A check too big for one event comes as {id, cambiada}: fetched whole.
  if (c.cambiada) { Staff.api("GET", "/cuentas/" + c.id).then(oneCheck, () => {}); return; }
  // Paid and then open again (the manager voided its invoice): the waiter is told.
  if (c.estado === "abierta" && closedChecks.has(c.id)) { closedChecks.delete(c.id); reopened.set(c.id, Date.now()); }
  if (c.estado !== "abierta") closedChecks.add(c.id);
  if (c.estado === "abierta") checks.set(c.id, c); else checks.delete(c.id);
  if (shown && shown.id === c.id) { shown = c; renderCheck(); }
  markFloor();
}

/** What the guests asked for from their table's link: the bill, or dishes not yet sent. */
function guestCalls(c) {
  const calls = [];
  if (c.pide_cuenta && c.estado === "abierta") calls.push("Pide la cuenta");
  const nuevas = c.lineas.filter(l => l.origen === "cliente" && l.estado === "pendiente").reduce((n, l) => n + l.cantidad, 0);
  if (nuevas) calls.push(nuevas === 1 ? "1 plato del cliente" : nuevas + " platos del cliente");
  return calls;
}

/** Food the kitchen has ready for the table: the dishes waiting at the pass. */
function readyFood(c) {
  return c.lineas.filter(l => l.estado === "preparada").reduce((n, l) => n + l.cantidad, 0);
}

// What needs the waiter, on any screen of the page: ready food, a guest calling, a check reopened.
// A new one buzzes (navigator.vibrate) and, if the waiter turned it on, chimes.
const reopened = new Map();      // check id → when it was reopened (a manager's void of its invoice)
const closedChecks = new Set();  // checks seen closing, to tell a reopening
let alerted = null;              // the keys of what was already announced (null until the first lists)
let soundOn = localStorage.getItem("comanda.camarero.sonido") === "si";

/** Each table's needs now: [{mesa, cuenta, kind, text, mia}], the waiter's own tables (and those nobody serves) first.
 *  Only those buzz and chime: a colleague's table is shown, quietly, after them. */
function needs() {
  const out = [];
  for (const c of checks.values()) {
    const mesa = c.mesa;
    const mia = !c.camarero || c.camarero.id === yo;
    const before = out.length;
    const food = readyFood(c);
    if (food) out.push({ cuenta: c.id, mesa, kind: "lista", key: "lista:" + c.id + ":" + food, text: "✔ " + (food === 1 ? "1 plato listo" : food + " platos listos") });
    // The guests' calls, as the tile and the check say them (guestCalls), each its own item.
    for (const call of guestCalls(c)) {
      const bill = call === "Pide la cuenta";
      out.push({ cuenta: c.id, mesa, kind: bill ? "cuenta" : "cliente", key: (bill ? "cuenta:" : "cliente:") + c.id + ":" + call,
                 text: (bill ? "€ " : "✎ ") + call });
    }
    if (reopened.has(c.id)) out.push({ cuenta: c.id, mesa, kind: "reabierta", key: "reabierta:" + c.id, text: "↺ Cuenta reabierta" });
    for (const n of out.slice(before)) { n.mia = mia; n.de = mia || !c.camarero ? null : c.camarero.nombre; }
  }
  // Stable: within each group, the order the checks came in.
  return out.filter(n => n.mia).concat(out.filter(n => !n.mia));
}

/** The bar of what needs the waiter, above every screen; each item opens its check. */
function renderNeeds() {
  const list = needs();
  const bar = $("avisos");
  const here = shown ? shown.id : null;
  const others = list.filter(n => n.cuenta !== here);
  bar.hidden = others.length === 0;
  bar.replaceChildren(...others.map(n => {
    const b = Staff.button("", "aviso " + n.kind + (n.mia ? "" : " ajena"), () => { reopened.delete(n.cuenta); location.hash = "#cuenta-" + n.cuenta; });
    b.append(Staff.el("strong", null, n.mesa), " ", n.text);
    if (n.de) b.append(" ", Staff.el("span", "de", "(" + n.de + ")"));
    return b;
  }));
  // Buzz and chime for something new at the waiter's own tables (or nobody's), not a colleague's.
  const keys = new Set(list.filter(n => n.mia).map(n => n.key));
  if (alerted !== null && [...keys].some(k => !alerted.has(k))) announce();
  alerted = keys;
}

function announce() {
  try { if (navigator.vibrate) navigator.vibrate([120, 80, 120]); } catch (e) { /* no vibration here */ }
  if (soundOn) Staff.chime();
}

function showSound() {
  $("sonido").textContent = soundOn ? "♪ sí" : "♪ no";
  $("sonido").setAttribute("aria-label", soundOn ? "Sonido de avisos: sí" : "Sonido de avisos: no");
  $("sonido").setAttribute("aria-pressed", String(soundOn));
}
$("sonido").addEventListener("click", () => {
  soundOn = !soundOn;
  localStorage.setItem("comanda.camarero.sonido", soundOn ? "si" : "no");
  showSound();
  if (soundOn) Staff.chime();
});
showSound();

/** The floor's tiles marked with their guests' calls (the floor itself does not carry checks),
 *  and below them the open checks that no table holds. */
function markFloor() {
  renderNeeds();
  const loose = mesaID === null && sueltaID === null ? looseChecks() : [];
  $("loose").hidden = loose.length === 0;
  $("loose-list").replaceChildren(...loose.map(c => {
    const b = Staff.button("", "quiet loose-check", () => { location.hash = "#cuenta-" + c.id; });
    b.dataset.cuenta = String(c.id);
    b.append(Staff.el("strong", null, c.mesa), " ", Staff.el("span", null, "Pendiente " + Staff.money(c.pendiente)));
    b.setAttribute("aria-label", "Cuenta de " + c.mesa + ", pendiente " + Staff.money(c.pendiente));
    return b;
  }));
  for (const tile of $("floor").querySelectorAll(".tile")) {
    const mesa = Floor.byID(Number(tile.dataset.id));
    const c = mesa && mesa.cuenta_id && !mesa.unida_a ? checks.get(mesa.cuenta_id) : null;
    const calls = c ? guestCalls(c) : [];
    const food = c ? readyFood(c) : 0;
    // Ready food: its own mark, an icon and words, not a colour alone.
    let ready = tile.querySelector(".ready-food");
    tile.classList.toggle("food-ready", food > 0);
    if (food) {
      if (!ready) { ready = Staff.el("span", "ready-food"); tile.append(ready); }
      ready.textContent = "✔ " + (food === 1 ? "1 plato listo" : food + " platos listos");
    } else if (ready) ready.remove();
    let badge = tile.querySelector(".calls");
    tile.classList.toggle("calling", calls.length > 0);
    const said = [...(food ? [food === 1 ? "1 plato listo" : food + " platos listos"] : []), ...calls];
    if (mesa) tile.setAttribute("aria-label", "Mesa " + mesa.nombre + ", " + Floor.stateText(mesa) + (said.length ? ", " + said.join(", ") : ""));
    if (!calls.length) { if (badge) badge.remove(); continue; }
    if (!badge) { badge = Staff.el("span", "calls"); tile.append(badge); }
    badge.textContent = "€ " + calls.join(" · ");
  }
}

function renderFloor(data) {
  Floor.render($("floor"), data.mesas, openTable);
  markFloor();
  if (mesaID !== null) {
    const mesa = mesaOf(mesaID);
    if (!shown || !mesa || mesa.cuenta_id !== shown.id) showCheck();
  }
}

function message(e) {
  const code = e && e.error && e.error.code;
  const messages = {
    plato_agotado: "Ese plato se acaba de agotar.",
    linea_enviada: "Esa línea ya se envió a cocina: no se puede cambiar.",
    nada_que_enviar: "No hay nada por enviar.",
    nada_que_marchar: "No queda nada en espera de ese curso.",
    cuenta_cerrada: "La cuenta ya está cerrada.",
    mesa_no_libre: "Esa mesa ya no está libre.",
    cuenta_con_cobros: "La cuenta ya tiene un cobro: su descuento ya no se puede cambiar.",
    linea_anulada: "Esa línea está anulada.",
    linea_cobrada: "Esa línea ya está cobrada: anule antes su factura.",
    empresa_sin_configurar: "Falta configurar la empresa (su NIF) para emitir facturas: avise al gerente.",
  };
  if (code === "validation_failed" && e.error.field === "opciones") return "Elija las opciones del plato.";
  if (code === "validation_failed" && e.error.field === "cantidad") return "La cantidad va de 1 a 100.";
  return messages[code] || Floor.message(e);
}

/** A message over the screen: red for what failed, green (`good`) for what was done. */
function toast(id, text, good) {
  const t = $(id);
  t.textContent = text;
  t.classList.toggle("ok", !!good);
  t.hidden = false;
  clearTimeout(t.timer);
  t.timer = setTimeout(() => { t.hidden = true; }, 3000);
}

// A manager's correction of a line: an invitation, a discount or a void, each with its reason.
let esGerente = false;
let yo = null;   // the logged-in member of staff's id
$("atender").addEventListener("click", async () => {
  if (!shown) return;
  try {
    const c = await Staff.api("POST", "/cuentas/" + shown.id + "/atender");
    checks.set(c.id, c);
    shown = c;
    renderCheck();
    toast("action-error", "Ahora atiende usted la mesa " + c.mesa + ".", true);
  } catch (e) { if (e.status !== 401) toast("action-error", message(e)); }
});
const MOTIVOS_AJUSTE = {
  invitar: ["Invita la casa", "Cumpleaños", "Cliente habitual", "Tardó mucho"],
  descuento: ["Se coció de nuevo", "Tardó mucho", "Cliente habitual", "No era lo pedido"],
  anular: ["Devuelto a cocina", "Pedido por error", "Agotado", "No le gustó"],
};
function ajustar(l, tipo) {
  let porcentaje = tipo === "invitar" ? 100 : 10;
  $("ajuste-title").textContent = (tipo === "invitar" ? "Invitar a " : tipo === "descuento" ? "Descuento en " : "Anular ") + l.cantidad + " × " + l.nombre;
  $("ajuste-si").textContent = tipo === "invitar" ? "Invitar" : tipo === "descuento" ? "Aplicar descuento" : "Anular";
  $("ajuste-si").className = tipo === "anular" ? "bad" : "go";
  $("ajuste-error").textContent = "";
  $("ajuste-motivo").value = "";
  const chips = $("ajuste-porcentajes");
  chips.hidden = tipo !== "descuento";
  const pct = [10, 15, 20, 25, 50].map(n => {
    const b = Staff.button(n + " %", "quiet small", () => { porcentaje = n; for (const x of pct) x.setAttribute("aria-pressed", String(x === b)); });
    b.setAttribute("aria-pressed", String(n === porcentaje));
    return b;
  });
  chips.replaceChildren(Staff.el("legend", null, "Descuento"), ...pct);
  $("ajuste-motivos").replaceChildren(...MOTIVOS_AJUSTE[tipo].map(m => Staff.button(m, "quiet small", () => { $("ajuste-motivo").value = m; })));
  $("ajuste-si").onclick = async () => {
    const motivo = $("ajuste-motivo").value.trim();
    if (!motivo) { $("ajuste-error").textContent = "Escriba o elija el motivo."; return; }
    const base = "/cuentas/" + shown.id + "/lineas/" + l.id;
    try {
      if (tipo === "anular") await Staff.api("POST", base + "/anular", { motivo });
      else await Staff.api("POST", base + "/descuento", { porcentaje, motivo });
      $("ajuste").close();
      refresh();
    } catch (e) {
      if (e.status !== 401) $("ajuste-error").textContent = message(e);
    }
  };
  $("ajuste").showModal();
}

async function act(method, path, body) {
  try {
    const result = await Staff.api(method, path, body);
    refresh();
    return result;
  } catch (e) {
    if (e.status !== 401) toast("action-error", message(e));
    return null;
  }
}

/** After a change of this page's own: read the check now (the stream follows). */
async function refresh() {
  if (!shown) return;
  try { oneCheck(await Staff.api("GET", "/cuentas/" + shown.id)); } catch (e) { /* the stream or the notice tells */ }
}

function change(l, cambios) {
  if (cambios.cantidad === 0) return act("DELETE", "/cuentas/" + shown.id + "/lineas/" + l.id);
  return act("PATCH", "/cuentas/" + shown.id + "/lineas/" + l.id, cambios);
}

// The floor's taps: a free table is seated (and its check opened), an occupied one opens its check.
function openTable(id) {
  const mesa = Floor.byID(id);
  if (!mesa) return;
  if (mesa.estado === "libre") {
    return Floor.openSeat(mesa, async body => {
      try {
        await Staff.api("POST", "/mesas/" + mesa.id + "/sentar", body);
        $("seat").close();
        if (floorFeed) floorFeed.now();
        location.hash = "#mesa-" + mesa.id;
      } catch (e) {
        if (e.status !== 401) $("seat-error").textContent = Floor.message(e);
      }
    });
  }
  if (mesa.estado === "ocupada") { location.hash = "#mesa-" + (mesa.unida_a || mesa.id); return; }
  $("table-title").textContent = "Mesa " + mesa.nombre;
  $("table-detail").textContent = Floor.stateText(mesa);
  $("table-error").textContent = "";
  $("table-actions").replaceChildren(Staff.button("Volver", "quiet", () => $("table").close()),
    Staff.button("Limpia", "ok", async () => {
      try { await Staff.api("POST", "/mesas/" + mesa.id + "/limpia"); $("table").close(); if (floorFeed) floorFeed.now(); }
      catch (e) { if (e.status !== 401) $("table-error").textContent = Floor.message(e); }
    }));
  $("table").showModal();
}

// The menu.
async function loadMenu(q) {
  try {
    carta = await Staff.api("GET", "/carta" + (q ? "?q=" + encodeURIComponent(q) : ""));
    renderMenu();
  } catch (e) {
    if (e.status !== 401) $("dishes").replaceChildren(Staff.el("p", "empty", message(e)));
  }
}

function renderMenu() {
  const tipos = carta.map(s => s.tipo);
  if (tipo !== null && !tipos.includes(tipo) && !$("search").value) tipo = null;
  $("categories").replaceChildren(...[null, ...tipos].map(t => {
    const b = Staff.button(t === null ? "Todo" : t, "chip" + (t === tipo ? " on" : ""), () => { tipo = t; renderMenu(); });
    b.setAttribute("aria-pressed", String(t === tipo));
    return b;
  }));
  const sections = carta.filter(s => tipo === null || s.tipo === tipo);
  const list = [];
  for (const s of sections) {
    list.push(Staff.el("h3", null, s.tipo));
    for (const p of s.platos) {
      const b = Staff.button("", "dish" + (p.disponible ? "" : " agotado"), () => openDish(p, s.tipo));
      b.dataset.id = String(p.id);
      b.append(Staff.el("span", "name", p.nombre),
               Staff.el("span", "price", p.disponible ? Staff.money(p.precio) : "Agotado"));
      if (p.opciones.length) b.append(Staff.el("span", "has-options", "con opciones"));
      b.disabled = !p.disponible;
      list.push(b);
    }
  }
  if (list.length === 0) list.push(Staff.el("p", "empty", "Ningún plato con ese nombre."));
  $("dishes").replaceChildren(...list);
}

function openMenu() {
  if (!shown) return;
  $("menu-mesa").textContent = shown.mesa;
  $("search").value = "";
  $("added").textContent = "";
  tipo = null;
  loadMenu("");
  $("menu").showModal();
}

let searchTimer = null;
$("search").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => loadMenu($("search").value.trim()), 200);
});

// A dish: its options (required groups first), course, quantity and notes.
let dish = null, qty = 1;

function openDish(p, categoria) {
  dish = p;
  qty = 1;
  $("dish-name").textContent = p.nombre;
  $("dish-price").textContent = Staff.money(p.precio);
  $("dish-error").textContent = "";
  $("notas").value = "";
  $("qty").textContent = "1";
  const groups = [...p.opciones].sort((a, b) => (b.min > 0) - (a.min > 0));
  $("groups").replaceChildren(...groups.map(g => {
    const set = Staff.el("fieldset", "group");
    set.dataset.grupo = String(g.id);
    const rule = g.min > 0 ? (g.min === g.max ? "elija " + g.min : "elija de " + g.min + " a " + g.max)
                           : (g.max === 1 ? "opcional" : "opcional, hasta " + g.max);
    const legend = Staff.el("legend", null, g.nombre + " ");
    legend.append(Staff.el("span", g.min > 0 ? "required" : "hint", "(" + rule + ")"));
    set.append(legend);
    const single = g.max === 1;
    for (const v of g.valores) {
      const label = Staff.el("label", "choice");
      const input = document.createElement("input");
      input.type = single ? "radio" : "checkbox";
      input.name = "g" + g.id;
      input.value = String(v.id);
      input.addEventListener("change", () => limit(set, g));
      label.append(input, Staff.el("span", null, v.nombre), Staff.el("span", "extra", v.precio ? "+" + Staff.money(v.precio) : ""));
      set.append(label);
    }
    set.append(Staff.el("div", "error group-error"));
    return set;
  }));
  const suggested = CURSO_DE[categoria] || 1;
  $("courses").replaceChildren(...CURSOS.map((name, i) => {
    const label = Staff.el("label", "seg");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "curso";
    input.value = String(i + 1);
    input.checked = i + 1 === suggested;
    label.append(input, Staff.el("span", null, name));
    return label;
  }));
  updatePrice();
  $("dish").showModal();
}

/** A group takes no more than its `max`: the other boxes wait until one is unticked. */
function limit(set, g) {
  const boxes = [...set.querySelectorAll("input")];
  const picked = boxes.filter(b => b.checked).length;
  if (g.max > 1) for (const b of boxes) b.disabled = !b.checked && picked >= g.max;
  set.querySelector(".group-error").textContent = "";
  updatePrice();
}

function picked() { return [...$("groups").querySelectorAll("input:checked")].map(i => Number(i.value)); }

function updatePrice() {
  if (!dish) return;
  const ids = new Set(picked());
  let unit = Math.round(dish.precio * 100);
  for (const g of dish.opciones) for (const v of g.valores) if (ids.has(v.id)) unit += Math.round(v.precio * 100);
  $("dish-add").textContent = "Añadir · " + Staff.money(unit * qty / 100);
}

$("less").addEventListener("click", () => { qty = Math.max(1, qty - 1); $("qty").textContent = String(qty); updatePrice(); });
$("more").addEventListener("click", () => { qty = Math.min(100, qty + 1); $("qty").textContent = String(qty); updatePrice(); });

$("dish-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  let ok = true;
  for (const g of dish.opciones) {
    const set = $("groups").querySelector("[data-grupo='" + g.id + "']");
    const n = set.querySelectorAll("input:checked").length;
    if (n < g.min) {
      set.querySelector(".group-error").textContent = "Elija " + (g.min === 1 ? "una opción" : "al menos " + g.min) + ".";
      if (ok) set.scrollIntoView({ block: "center" });
      ok = false;
    }
  }
  if (!ok || !shown) return;
  const body = { plato_id: dish.id, cantidad: qty, curso: Number($("courses").querySelector("input:checked").value),
                 notas: $("notas").value.trim(), opciones: picked() };
  try {
    await Staff.api("POST", "/cuentas/" + shown.id + "/lineas", body);
    $("dish").close();
    $("added").textContent = "Añadido: " + qty + " × " + dish.nombre;
    refresh();
  } catch (e) {
    if (e.status !== 401) { $("dish-error").textContent = message(e); $("dish-error").scrollIntoView({ block: "center" }); }
  }
});

async function showPrebill() {
  if (!shown) return;
  try {
    $("ticket-text").textContent = await Staff.api("GET", "/cuentas/" + shown.id + "/ticket");
    choosePrinter("ticket");
    $("ticket").showModal();
  } catch (e) { if (e.status !== 401) toast("action-error", message(e)); }
}

// The restaurant's printers: a notice while one with tickets waiting cannot print; Imprimir on the
// pre-bill and the invoice at the printer chosen (this phone remembers the last one).
let impresoras = [];
const ULTIMA_IMPRESORA = "comanda.impresora";
function renderImpresoras(list) {
  impresoras = list || [];
  Staff.printerNotice($("impresoras-aviso"), impresoras);
}
function choosePrinter(prefix) {
  $(prefix + "-imprimir-en").hidden = impresoras.length === 0;
  const select = $(prefix + "-impresora");
  select.replaceChildren(...impresoras.map(p => new Option(p.nombre + (p.estado === "lista" ? "" : " (" + (p.estado === "sin_papel" ? "sin papel" : "sin conexión") + ")"),
                                                           String(p.id))));
  const last = localStorage.getItem(ULTIMA_IMPRESORA);
  if (last && impresoras.some(p => String(p.id) === last)) select.value = last;
}
async function printAt(prefix, path) {
  const id = Number($(prefix + "-impresora").value);
  if (!id) return;
  localStorage.setItem(ULTIMA_IMPRESORA, String(id));
  try {
    await Staff.api("POST", path, { impresora_id: id });
    toast("action-error", "Enviado a " + $(prefix + "-impresora").selectedOptions[0].textContent + ".", true);
  } catch (e) { if (e.status !== 401) toast("action-error", message(e)); }
}
$("ticket-a-impresora").addEventListener("click", () => shown && printAt("ticket", "/cuentas/" + shown.id + "/imprimir"));
$("factura-a-impresora").addEventListener("click", () => facturaShown && printAt("factura", "/facturas/" + facturaShown + "/imprimir"));
let facturaShown = null;

$("add").addEventListener("click", openMenu);
$("send").addEventListener("click", () => shown && act("POST", "/cuentas/" + shown.id + "/enviar"));
$("prebill").addEventListener("click", showPrebill);
$("pay").addEventListener("click", openCobro);
$("free").addEventListener("click", async () => {
  const mesa = mesaOf(mesaID);
  if (mesa && await act("POST", "/mesas/" + mesa.id + "/liberar")) location.hash = "";
});
$("back").addEventListener("click", () => { location.hash = ""; });
for (const d of document.querySelectorAll("dialog")) {
  for (const b of d.querySelectorAll("[data-close]")) b.addEventListener("click", () => d.close());
}
window.addEventListener("hashchange", route);

function tickClock() { $("clock").textContent = Staff.clock(new Date()); }
tickClock();
setInterval(tickClock, 1000);
setInterval(() => { if (Floor.mesas().length && mesaID === null && sueltaID === null) renderFloor({ mesas: Floor.mesas() }); }, 30000);

Staff.login(["camarero", "gerente"], (me) => {
  esGerente = me.rol === "gerente";
  yo = me.id;
  floorFeed = Staff.live({ stream: "/mesas/eventos", ticket: true, events: { mesas: renderFloor },
                           poll: "/mesas", ms: POLL_MS, render: renderFloor });
  checksFeed = Staff.live({ stream: "/cuentas/eventos", ticket: true, events: { cuentas: allChecks, cuenta: oneCheck, impresoras: renderImpresoras },
                            poll: "/cuentas", ms: POLL_MS, render: allChecks });
  Staff.api("GET", "/impresoras").then(renderImpresoras, () => {});
  route();
}, () => {
  for (const feed of [floorFeed, checksFeed]) if (feed) feed.stop();
  floorFeed = checksFeed = null;
});
