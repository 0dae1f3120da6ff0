// The manager's menu: the dishes by category with their allergen badges,
// sold out on and off, create and edit a dish (allergens and traces as
// checkboxes, ingredients as rows, the photo from the device with a preview),
// retire one after a confirmation. Every API error is shown beside its field.
// Text from the API goes in as text, never as HTML.
"use strict";
const SHORT = { gluten: "Gluten", crustaceos: "Crustáceos", huevos: "Huevos", pescado: "Pescado", cacahuetes: "Cacahuetes",
  soja: "Soja", lacteos: "Lácteos", frutos_de_cascara: "Frutos de cáscara", apio: "Apio", mostaza: "Mostaza", sesamo: "Sésamo",
  sulfitos: "Sulfitos", altramuces: "Altramuces", moluscos: "Moluscos" };
let alergenos = [];       // [{codigo, nombre}] from GET /alergenos
let order = [];           // categories in menu order
let poller = null;
let editing = null;       // the dish being edited, or null for a new one
let photo = { file: null, remove: false };

const $ = (id) => document.getElementById(id);

function badge(text, cls, title) {
  const b = Staff.el("span", "badge" + (cls ? " " + cls : ""), text);
  if (title) b.title = title;
  return b;
}

const button = Staff.button;

function row(p) {
  const r = Staff.el("article", "plato" + (p.disponible ? "" : " agotado"));
  r.dataset.id = String(p.id);
  if (p.foto) { const img = document.createElement("img"); img.src = p.foto; img.alt = ""; r.append(img); }
  else r.append(Staff.el("div", "sinfoto"));
  const info = Staff.el("div");
  const name = Staff.el("div", "nombre", p.nombre);
  name.append(Staff.el("span", "precio", Staff.money(p.precio)));
  const badges = Staff.el("div", "badges");
  if (!p.disponible) badges.append(badge("AGOTADO", "agotado"));
  for (const c of p.alergenos) badges.append(badge(SHORT[c] || c, "", nombreDe(c)));
  for (const c of p.trazas) badges.append(badge("Trazas: " + (SHORT[c] || c), "traza", nombreDe(c)));
  info.append(name, badges);
  const buttons = Staff.el("div", "buttons");
  buttons.append(
    button(p.disponible ? "Marcar agotado" : "Volver a servir", p.disponible ? "quiet" : "ok", () => setDisponible(p, !p.disponible)),
    button("Editar", "go", () => openEditor(p)),
    button("Retirar", "bad", () => confirmRetire(p)));
  r.append(info, buttons);
  return r;
}

function nombreDe(codigo) { const a = alergenos.find(x => x.codigo === codigo); return a ? a.nombre : codigo; }

/** Text as the search compares it: lower case, no accents ("Pulpo a la Gallega" → "pulpo a la gallega"). */
function fold(text) { return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase(); }

let lastPlatos = [];
function render(platos) {
  lastPlatos = platos;
  const main = $("carta");
  const tipos = [...new Set(platos.map(p => p.tipo))];
  order = tipos;
  $("tipos").replaceChildren(...tipos.map(t => { const o = document.createElement("option"); o.value = t; return o; }));
  // The search: every word typed, in any order, in the name, the description or the category ("pulpo gallega").
  const words = fold($("buscar-plato").value).split(/\s+/).filter(Boolean);
  const matches = (p) => { const hay = fold(p.nombre + " " + p.descripcion + " " + p.tipo); return words.every(w => hay.includes(w)); };
  const sections = [];
  for (const tipo of tipos) {
    const mine = platos.filter(p => p.tipo === tipo && matches(p));
    if (mine.length === 0) continue;
    const h = Staff.el("h2", "", tipo);
    const list = Staff.el("section");
    list.append(...mine.map(row));
    sections.push(h, list);
  }
  if (sections.length === 0 && words.length) sections.push(Staff.el("p", "empty", "Ningún plato tiene «" + $("buscar-plato").value.trim() + "»."));
  main.replaceChildren(...sections);
}
$("buscar-plato").addEventListener("input", () => render(lastPlatos));

/** A message at the foot of the screen: red for what failed, green (`good`) for what was done. */
function toast(text, good) {
  const t = $("action-error");
  t.textContent = text;
  t.classList.toggle("ok", !!good);
  t.hidden = false;
  setTimeout(() => { t.hidden = true; }, 4000);
}

async function setDisponible(p, disponible) {
  try { await Staff.api("PUT", "/platos/" + p.id + "/disponible", { disponible }); }
  catch (e) { if (e.status !== 401) toast(e.error.message); }
  poller && poller.now();
}

// The editor.
function checkboxes(container, name) {
  container.replaceChildren(...alergenos.map(a => {
    const label = Staff.el("label");
    const box = document.createElement("input");
    box.type = "checkbox"; box.name = name; box.value = a.codigo;
    label.append(box, document.createTextNode(SHORT[a.codigo] || a.nombre));
    label.title = a.nombre;
    return label;
  }));
}

function ingredienteRow(nombre, cantidad) {
  const r = Staff.el("div", "ingrediente");
  const n = document.createElement("input"); n.placeholder = "Ingrediente"; n.maxLength = 100; n.value = nombre || ""; n.className = "ing-nombre";
  const c = document.createElement("input"); c.placeholder = "Cantidad (200 g)"; c.maxLength = 50; c.value = cantidad || ""; c.className = "ing-cantidad";
  r.append(n, c, button("Quitar", "quiet", () => r.remove()));
  return r;
}

// A dish's options: groups of values with their extra price; a group is
// required (min 1) or not (min 0), and allows up to `max` values.
function valorRow(nombre, precio) {
  const r = Staff.el("div", "valor");
  const n = document.createElement("input"); n.placeholder = "Opción (Al punto)"; n.maxLength = 60; n.value = nombre || ""; n.className = "val-nombre";
  n.setAttribute("aria-label", "Nombre de la opción");
  const p = document.createElement("input"); p.placeholder = "+ € (0)"; p.inputMode = "decimal"; p.className = "val-precio";
  p.value = precio ? String(precio).replace(".", ",") : "";
  p.setAttribute("aria-label", "Suplemento en euros");
  r.append(n, p, button("Quitar", "quiet", () => r.remove()));
  return r;
}

function grupoRow(g) {
  const box = Staff.el("div", "grupo");
  const head = Staff.el("div", "grupo-head");
  const n = document.createElement("input"); n.placeholder = "Grupo (Punto de la carne)"; n.maxLength = 60; n.value = g ? g.nombre : ""; n.className = "grp-nombre";
  n.setAttribute("aria-label", "Nombre del grupo");
  const required = Staff.el("label", "check");
  const req = document.createElement("input"); req.type = "checkbox"; req.className = "grp-obligatorio"; req.checked = g ? g.min > 0 : true;
  required.append(req, document.createTextNode(" Obligatorio"));
  const most = Staff.el("label", "max");
  const max = document.createElement("input"); max.type = "number"; max.min = "1"; max.max = "20"; max.value = String(g ? g.max : 1); max.className = "grp-max";
  most.append(document.createTextNode("Hasta "), max);
  head.append(n, required, most, button("Quitar grupo", "quiet", () => box.remove()));
  const valores = Staff.el("div", "valores");
  valores.append(...(g ? g.valores : [{}, {}]).map(v => valorRow(v.nombre, v.precio)));
  box.append(head, valores, button("+ Opción", "quiet", () => valores.append(valorRow())));
  return box;
}

/** The options as the editor has them, in PUT /platos/{id}/opciones's form. */
function opcionesDelEditor() {
  return [...document.querySelectorAll("#grupos .grupo")].map(g => {
    const valores = [...g.querySelectorAll(".valor")]
      .map(v => ({ nombre: v.querySelector(".val-nombre").value.trim(), precio: v.querySelector(".val-precio").value.trim() }))
      .filter(v => v.nombre !== "" || v.precio !== "")
      .map(v => ({ nombre: v.nombre, precio: v.precio === "" ? 0 : (Number.isNaN(Number(v.precio.replace(",", "."))) ? v.precio : Number(v.precio.replace(",", "."))) }));
    const max = Math.min(Number(g.querySelector(".grp-max").value) || 1, Math.max(valores.length, 1));
    return { nombre: g.querySelector(".grp-nombre").value.trim(), min: g.querySelector(".grp-obligatorio").checked ? 1 : 0, max, valores };
  }).filter(g => g.nombre !== "" || g.valores.length > 0);
}

/** The dish's options in the same form, to tell whether the editor changed them. */
function opcionesDe(p) {
  return (p ? p.opciones : []).map(g => ({ nombre: g.nombre, min: g.min, max: g.max,
                                           valores: g.valores.map(v => ({ nombre: v.nombre, precio: v.precio })) }));
}

function clearErrors() {
  for (const e of document.querySelectorAll("#plato [data-error]")) e.textContent = "";
  for (const l of document.querySelectorAll("#plato label.choca")) l.classList.remove("choca");
}

/** Each field's rule in Spanish, for the server's validation errors (its `message` is for the log). */
const FIELD_ERRORS = {
  nombre: "Escriba el nombre del plato (de 1 a 100 caracteres).",
  precio: "Escriba el precio en euros, mayor que 0 y hasta 10.000, con dos decimales como mucho (por ejemplo 9,50).",
  tipo: "Escriba la categoría (de 1 a 50 caracteres).",
  descripcion: "La descripción tiene como mucho 1.000 caracteres.",
  alergenos: "Algún alérgeno marcado no es de la lista oficial: recargue la página y vuelva a marcarlos.",
  trazas: "Alguna traza marcada no es de la lista oficial: recargue la página y vuelva a marcarlas.",
  ingredientes: "Cada ingrediente necesita un nombre (hasta 100 caracteres); la cantidad, hasta 50.",
  iva: "El IVA es del 0, 4, 10 o 21 %.",
  disponible: "Marque si el plato está disponible.",
};

/** The allergens ticked both as contained and as a trace (a dish that contains one does not carry it as a trace), marked on the form. */
function ambasListas() {
  const form = $("plato");
  const contiene = new Set([...form.querySelectorAll("input[name=alergeno]:checked")].map(b => b.value));
  const choques = [];
  for (const box of form.querySelectorAll("input[name=traza]")) {
    const choca = box.checked && contiene.has(box.value);
    box.closest("label").classList.toggle("choca", choca);
    if (choca) choques.push(box.closest("label").textContent.trim());
  }
  return choques;
}

function textoAmbas(choques) {
  const lista = choques.length === 1 ? choques[0] : choques.slice(0, -1).join(", ") + " y " + choques[choques.length - 1];
  return lista + (choques.length === 1 ? " está marcado" : " están marcados") + " en «Contiene» y en «Puede contener trazas de»: "
    + "si el plato " + (choques.length === 1 ? "lo" : "los") + " contiene, no " + (choques.length === 1 ? "es traza" : "son trazas")
    + ". Desmarque la traza.";
}

function showError(e) {
  const f = e.error && e.error.field;
  const place = document.querySelector('#plato [data-error="' + (f || "") + '"]') || $("form-error");
  const choques = f === "trazas" && e.status === 422 ? ambasListas() : [];
  place.textContent = choques.length ? textoAmbas(choques)
    : e.status === 409 && e.error.code === "nombre_en_uso" ? "Ya hay un plato con ese nombre en la carta."
    : f === "opciones" && e.status === 422 ? "Revise las opciones: cada grupo con nombre y al menos una opción, nombres de hasta 60 letras, "
      + "suplementos de 0 a 1000 € con dos decimales como mucho."
    : f === "foto" ? e.error.message
    : e.status === 422 && FIELD_ERRORS[f] ? FIELD_ERRORS[f]
    : e.status === 0 ? "Sin conexión con el servidor: no se ha guardado."
    : "No se pudo guardar: revise los datos del plato.";
  place.scrollIntoView({ block: "center" });
}

function openEditor(p) {
  editing = p;
  photo = { file: null, remove: false };
  const form = $("plato");
  form.reset();
  clearErrors();
  $("editor-title").textContent = p ? "Editar " + p.nombre : "Nuevo plato";
  form.nombre.value = p ? p.nombre : "";
  form.precio.value = p ? String(p.precio).replace(".", ",") : "";
  form.tipo.value = p ? p.tipo : "";
  form.descripcion.value = p ? p.descripcion : "";
  form.disponible.checked = p ? p.disponible : true;
  for (const box of form.querySelectorAll("input[name=alergeno]")) box.checked = !!p && p.alergenos.includes(box.value);
  for (const box of form.querySelectorAll("input[name=traza]")) box.checked = !!p && p.trazas.includes(box.value);
  $("ingredientes").replaceChildren(...(p ? p.ingredientes : [{}]).map(i => ingredienteRow(i.nombre, i.cantidad)));
  form.iva.value = String(p ? p.iva : 10);
  $("grupos").replaceChildren(...(p ? p.opciones : []).map(grupoRow));
  const preview = $("preview");
  preview.hidden = !(p && p.foto);
  if (p && p.foto) preview.src = p.foto;
  $("quitar-foto").hidden = !(p && p.foto);
  $("editor").showModal();
}

$("foto").addEventListener("change", () => {
  const file = $("foto").files[0];
  photo = { file: file || null, remove: false };
  const preview = $("preview");
  if (file) { preview.src = URL.createObjectURL(file); preview.hidden = false; }
});
$("quitar-foto").addEventListener("click", () => { photo = { file: null, remove: true }; $("preview").hidden = true; });
$("add-ingrediente").addEventListener("click", () => $("ingredientes").append(ingredienteRow()));
$("add-grupo").addEventListener("click", () => $("grupos").append(grupoRow(null)));
$("nuevo").addEventListener("click", () => openEditor(null));

$("plato").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  const form = $("plato");
  // Said before sending, naming the allergens: the server would refuse it as a whole (field trazas).
  const choques = ambasListas();
  if (choques.length) {
    const place = document.querySelector('#plato [data-error="trazas"]');
    place.textContent = textoAmbas(choques);
    place.scrollIntoView({ block: "center" });
    return;
  }
  const precio = Number(form.precio.value.trim().replace(",", "."));
  const body = {
    nombre: form.nombre.value, descripcion: form.descripcion.value, tipo: form.tipo.value,
    precio: form.precio.value.trim() === "" || Number.isNaN(precio) ? form.precio.value : precio,
    disponible: form.disponible.checked, iva: Number(form.iva.value),
    alergenos: [...form.querySelectorAll("input[name=alergeno]:checked")].map(b => b.value),
    trazas: [...form.querySelectorAll("input[name=traza]:checked")].map(b => b.value),
    ingredientes: [...document.querySelectorAll("#ingredientes .ingrediente")]
      .map(r => ({ nombre: r.querySelector(".ing-nombre").value, cantidad: r.querySelector(".ing-cantidad").value }))
      .filter(i => i.nombre.trim() !== "" || i.cantidad.trim() !== ""),
  };
  const opciones = opcionesDelEditor();
  let saved;
  try {
    saved = editing ? await Staff.api("PATCH", "/platos/" + editing.id, body) : await Staff.api("POST", "/platos", body);
  } catch (e) {
    if (e.status !== 401) showError(e);
    return;
  }
  // The options are replaced as a whole, only when the editor changed them (their ids stay otherwise).
  if (JSON.stringify(opciones) !== JSON.stringify(opcionesDe(saved))) {
    try {
      saved = await Staff.api("PUT", "/platos/" + saved.id + "/opciones", { opciones });
    } catch (e) {
      editing = saved;
      if (e.status !== 401) showError({ status: e.status, error: Object.assign({}, e.error, { field: "opciones" }) });
      return;
    }
  }
  try {
    if (photo.file) await uploadPhoto(saved.id, photo.file);
    else if (photo.remove) await Staff.api("DELETE", "/platos/" + saved.id + "/foto");
  } catch (e) {
    editing = saved;
    showError({ status: e.status, error: Object.assign({}, e.error, { field: "foto" }) });
    return;
  }
  $("editor").close();
  poller && poller.now();
});

async function uploadPhoto(id, file) {
  let response;
  try {
    response = await fetch("/platos/" + id + "/foto", { method: "PUT", body: file,
      headers: { "Authorization": "Bearer " + sessionStorage.getItem("comanda.token"), "Content-Type": file.type || "application/octet-stream" } });
  } catch (e) { throw { status: 0, error: { message: "Sin conexión con el servidor" } }; }
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    const message = response.status === 413 ? "La foto pasa de 5 MB." : response.status === 415 ? "La foto debe ser JPEG, PNG o WebP."
      : (data && data.error && data.error.message) || "No se pudo subir la foto.";
    throw { status: response.status, error: { message } };
  }
}

// Retiring.
function confirmRetire(p) {
  $("retirar-nombre").textContent = p.nombre;
  $("retirar-si").onclick = async () => {
    $("retirar").close();
    try { await Staff.api("DELETE", "/platos/" + p.id); } catch (e) { if (e.status !== 401) toast(e.error.message); }
    poller && poller.now();
  };
  $("retirar").showModal();
}

for (const b of document.querySelectorAll("dialog [data-close]")) b.addEventListener("click", () => b.closest("dialog").close());

// The day's invoices: each one's number, time, table, method, amount and state; voiding one with a reason.
const METODO = { efectivo: "Efectivo", tarjeta: "Tarjeta", otro: "Otro" };
// The restaurant's zone, once the server has said it (dates and times are the restaurant's).
let zona = null;
let cierreMinutos = 0;   // when the business day closes (a report's "today" is the business day)
Staff.settings.then(a => {
  zona = (a && a.zonaHoraria) || null;
  const hm = /^(\d\d):(\d\d)$/.exec((a && a.cierreDia) || "");
  cierreMinutos = hm ? Number(hm[1]) * 60 + Number(hm[2]) : 0;
  for (const id of ["facturas-dia", "cierre-dia"]) if ($(id).dataset.tocado !== "si") $(id).value = today();
});
const MOTIVOS = ["Cobrada dos veces", "Importe equivocado", "Mesa equivocada", "El cliente pidió factura completa"];

/** Today's business day (YYYY-MM-DD) in the restaurant's zone (the device's calendar day until the server has said them). */
function today() {
  if (zona) {
    // The local time less the close: before 06:00 with a close at 06:00, still yesterday.
    const now = new Date(Date.now() - cierreMinutos * 60000);
    try { return new Intl.DateTimeFormat("en-CA", { timeZone: zona, year: "numeric", month: "2-digit", day: "2-digit" }).format(now); }
    catch (e) { /* an unknown zone: the device's date */ }
  }
  const d = new Date();
  return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
}

const VIEWS = { carta: "La carta", facturas: "Facturas", ventas: "Ventas", mesas: "Mesas", cierre: "Cierre de caja", verifactu: "VERI*FACTU",
                impresoras: "Impresoras", personal: "Personal" };

function showView(view) {
  for (const name of Object.keys(VIEWS)) {
    $(name).hidden = name !== view;
    $("ver-" + name).classList.toggle("on", name === view);
    $("ver-" + name).setAttribute("aria-pressed", String(name === view));
  }
  $("nuevo").hidden = view !== "carta";
  $("carta-buscar").hidden = view !== "carta";
  $("titulo").textContent = VIEWS[view];
  if (view === "facturas") loadFacturas();
  if (view === "ventas") loadVentas();
  if (view === "mesas") loadMesas();
  if (view === "cierre") { loadCierre(); cierrePrinters(); }
  if (verifactuPoller) { verifactuPoller.stop(); verifactuPoller = null; }
  if (view === "verifactu") verifactuPoller = Staff.poll("/verifactu/estado", 5000, renderVerifactu);
  if (impresorasPoller) { impresorasPoller.stop(); impresorasPoller = null; }
  if (view === "impresoras") { impresorasPoller = Staff.poll("/impresoras", 3000, renderImpresoras); loadEstaciones(); }
  if (view === "personal") loadPersonal();
}

// Staff: add with a role (a one-time code to hand over), change the role, a new code for a forgotten password, disable.
const ROLES = { camarero: "Camarero", cocina: "Cocina", anfitrion: "Anfitrión (puerta)", gerente: "Gerente" };
let yo = null;

function personaMessage(e) {
  const code = e && e.error && e.error.code, field = e && e.error && e.error.field;
  if (code === "ultimo_gerente") return "Tiene que quedar al menos un gerente activo: nombre antes a otra persona gerente.";
  if (code === "login_taken") return "Ese usuario ya existe: elija otro (por ejemplo, con la inicial del apellido).";
  const fields = { nombre: "Escriba el nombre (hasta 100 caracteres).",
                   login: "El usuario no puede llevar espacios y tiene hasta 100 caracteres.", rol: "Elija el puesto." };
  return (code === "validation_failed" && fields[field]) || (e && e.error && e.error.message) || "No se pudo hacer.";
}

/** "4/12": the day and month in the restaurant's zone (the device's until the server has said it). */
function diaMes(d) {
  try { return d.toLocaleDateString("es-ES", Object.assign({ day: "numeric", month: "numeric" }, zona ? { timeZone: zona } : {})); }
  catch (e) { return d.getDate() + "/" + (d.getMonth() + 1); }
}

function showCodigo(answer) {
  $("codigo-nombre").textContent = answer.miembro.nombre;
  $("codigo-login").textContent = answer.miembro.login;
  $("codigo-valor").textContent = answer.codigo;
  $("codigo").showModal();
}

/** Asks before something that ends a person's sessions; runs `action` on yes. */
function confirmPersona(title, text, yes, action) {
  $("confirmar-persona-title").textContent = title;
  $("confirmar-persona-texto").textContent = text;
  $("confirmar-persona-si").textContent = yes;
  $("confirmar-persona-si").onclick = async () => { $("confirmar-persona").close(); await action(); };
  $("confirmar-persona").showModal();
}

async function loadPersonal() {
  let list;
  try { list = await Staff.api("GET", "/personal"); } catch (e) { if (e.status !== 401) toast(personaMessage(e)); return; }
  $("personal-lista").replaceChildren(...list.map(p => {
    const card = Staff.el("article", "impresora persona" + (p.activo ? "" : " inactiva"));
    card.dataset.id = String(p.id);
    const head = Staff.el("div", "cabeza");
    head.append(Staff.el("strong", null, p.nombre + (yo && yo.id === p.id ? " (usted)" : "")),
      p.activo ? (p.password_temporal ? Staff.el("span", "estado temporal", "Sin estrenar") : Staff.el("span", "estado", "Activo"))
               : Staff.el("span", "estado inactiva", "Desactivado"));
    const caducado = p.password_temporal && p.codigo_caduca && new Date(p.codigo_caduca) <= new Date();
    card.append(head, Staff.el("p", "detalle", "Usuario: " + p.login
      + (p.password_temporal && p.activo ? " · aún no ha elegido su contraseña" : "")));
    if (p.password_temporal && p.activo && p.codigo_caduca) {
      const d = new Date(p.codigo_caduca);
      card.append(Staff.el("p", caducado ? "aviso-codigo caducado" : "aviso-codigo",
        caducado ? "Su código caducó: dele uno nuevo con «Nueva contraseña»."
                 : "Su código vale hasta el " + diaMes(d) + " a las " + Staff.clock(d) + "."));
    }
    const rol = Staff.el("label", "rol", "Puesto ");
    const select = document.createElement("select");
    select.name = "rol";
    for (const [value, text] of Object.entries(ROLES)) select.append(new Option(text, value));
    select.value = p.rol;
    select.disabled = !p.activo;
    select.addEventListener("change", async () => {
      try { await Staff.api("PATCH", "/personal/" + p.id, { rol: select.value }); toast(p.nombre + ": ahora " + ROLES[select.value].toLowerCase() + ".", true); }
      catch (e) { select.value = p.rol; if (e.status !== 401) toast(personaMessage(e)); }
      loadPersonal();
    });
    rol.append(select);
    card.append(rol);
    const acts = Staff.el("div", "buttons");
    if (p.activo) {
      acts.append(button("Nueva contraseña", "quiet", () => confirmPersona("¿Nueva contraseña para " + p.nombre + "?",
        "Su contraseña deja de servir y se cierra su sesión en todos sus dispositivos. Le daremos un código para que elija otra.",
        "Sí, dar un código", async () => {
          try { showCodigo(await Staff.api("POST", "/personal/" + p.id + "/password")); } catch (e) { if (e.status !== 401) toast(personaMessage(e)); }
          loadPersonal();
        })),
        button("Desactivar", "bad", () => confirmPersona("¿Desactivar a " + p.nombre + "?",
          "Se cierra su sesión en todos sus dispositivos y no podrá entrar. Sus cuentas, propinas y anulaciones siguen a su nombre.",
          "Sí, desactivar", async () => {
            try { await Staff.api("PATCH", "/personal/" + p.id, { activo: false }); toast(p.nombre + " ya no puede entrar.", true); }
            catch (e) { if (e.status !== 401) toast(personaMessage(e)); }
            loadPersonal();
          })));
    } else {
      acts.append(button("Activar", "go", async () => {
        try { await Staff.api("PATCH", "/personal/" + p.id, { activo: true }); } catch (e) { if (e.status !== 401) toast(personaMessage(e)); }
        loadPersonal();
      }));
    }
    for (const b of acts.querySelectorAll("button")) b.setAttribute("aria-label", b.textContent + ": " + p.nombre);
    select.setAttribute("aria-label", "Puesto de " + p.nombre);
    card.append(acts);
    return card;
  }));
}

$("persona-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const f = $("persona-form").elements;
  $("persona-error").textContent = "";
  try {
    const answer = await Staff.api("POST", "/personal", { nombre: f.nombre.value.trim(), login: f.login.value.trim(), rol: f.rol.value });
    $("persona-form").reset();
    showCodigo(answer);
    loadPersonal();
  } catch (e) { if (e.status !== 401) $("persona-error").textContent = personaMessage(e); }
});

// Printers: each with its state and jobs waiting, a test page, its jobs (reprint); stations: which categories print where.
let impresorasPoller = null, impresorasList = [];
const ESTADO_IMPRESORA = { lista: "Lista", sin_papel: "Sin papel", desconectada: "Desconectada" };
const TIPO_TRABAJO = { comanda: "Comanda", marchar: "Marchar", anulacion: "Anulación", pedido: "Pedido en línea", factura: "Factura",
                       precuenta: "Precuenta", prueba: "Prueba" };

function renderImpresoras(list) {
  impresorasList = list;
  const parados = list.filter(p => p.estado !== "lista");
  $("impresoras-aviso").hidden = parados.length === 0;
  $("impresoras-aviso").textContent = parados.map(p => p.nombre + ": " + ESTADO_IMPRESORA[p.estado].toLowerCase()
    + (p.pendientes ? " (" + p.pendientes + (p.pendientes === 1 ? " trabajo esperando)" : " trabajos esperando)") : "")).join(" · ");
  if (list.length === 0) { $("impresoras-lista").replaceChildren(Staff.el("p", "hint", "Todavía no hay impresoras: añada la de la cocina abajo.")); }
  else $("impresoras-lista").replaceChildren(...list.map(p => {
    const card = Staff.el("article", "impresora " + p.estado);
    card.dataset.id = String(p.id);
    const head = Staff.el("div", "cabeza");
    head.append(Staff.el("strong", null, p.nombre), Staff.el("span", "estado " + p.estado, ESTADO_IMPRESORA[p.estado] || p.estado));
    const respaldo = p.respaldo_id ? list.find(q => q.id === p.respaldo_id) : null;
    card.append(head, Staff.el("p", "detalle", p.host + ":" + p.puerto + " · " + p.columnas + " columnas · " + p.codigo_pagina.toUpperCase()
      + (p.cajon ? " · cajón" : "") + (respaldo ? " · respaldo: " + respaldo.nombre : "")),
      Staff.el("p", "pendientes", p.pendientes ? p.pendientes + (p.pendientes === 1 ? " trabajo esperando" : " trabajos esperando") : "Nada esperando"));
    const acts = Staff.el("div", "buttons");
    acts.append(button("Prueba", "go", () => prueba(p)), button("Trabajos", "quiet", () => loadTrabajos(p)),
                button("Editar", "quiet", () => editImpresora(p)), button("Borrar", "bad", () => borrarImpresora(p)));
    for (const b of acts.querySelectorAll("button")) b.setAttribute("aria-label", b.textContent + ": " + p.nombre);
    card.append(acts);
    return card;
  }));
  // The backups and the stations' printers to choose from.
  const respaldo = $("impresora-form").elements.respaldo_id, current = respaldo.value;
  respaldo.replaceChildren(new Option("Ninguna", ""), ...list.map(p => new Option(p.nombre, String(p.id))));
  respaldo.value = current;
  const estacion = $("estacion-form").elements.impresora_id, chosen = estacion.value;
  estacion.replaceChildren(...list.map(p => new Option(p.nombre, String(p.id))));
  if (chosen) estacion.value = chosen;
}

function impresoraMessage(e) {
  const code = e && e.error && e.error.code, field = e && e.error && e.error.field;
  const messages = {
    impresora_duplicada: "Ya hay una impresora con ese nombre.",
    impresora_con_trabajos: "Esa impresora tiene trabajos esperando: no se puede borrar todavía.",
    impresora_en_uso: "Esa impresora la usa una estación o es el respaldo de otra: cámbielas antes.",
    ya_hay_estacion_por_defecto: "Ya hay una estación por defecto.",
    categoria_en_otra_estacion: "Alguna de esas categorías ya sale en otra estación.",
  };
  const fields = { nombre: "Escriba un nombre (hasta 60 caracteres).", host: "Escriba la dirección IP de la impresora o su nombre en la red.",
                   puerto: "El puerto va de 1 a 65535 (normalmente 9100).", columnas: "Las columnas van de 32 a 64 (48 en papel de 80 mm).",
                   respaldo_id: "El respaldo tiene que ser otra impresora.", impresora_id: "Elija la impresora de la estación." };
  return messages[code] || (code === "validation_failed" && fields[field]) || (e && e.error && e.error.message) || "No se pudo hacer.";
}

let editandoImpresora = null;
function editImpresora(p) {
  editandoImpresora = p;
  const f = $("impresora-form").elements;
  for (const k of ["nombre", "host", "puerto", "columnas", "codigo_pagina", "qr"]) f[k].value = String(p[k]);
  f.respaldo_id.value = p.respaldo_id ? String(p.respaldo_id) : "";
  f.cajon.checked = p.cajon;
  $("impresora-form-titulo").textContent = "Editar " + p.nombre;
  $("impresora-guardar").textContent = "Guardar";
  $("impresora-cancelar").hidden = false;
  f.nombre.focus();
}
function resetImpresoraForm() {
  editandoImpresora = null;
  $("impresora-form").reset();
  $("impresora-form-titulo").textContent = "Añadir impresora";
  $("impresora-guardar").textContent = "Añadir";
  $("impresora-cancelar").hidden = true;
  $("impresora-error").textContent = "";
}
$("impresora-cancelar").addEventListener("click", resetImpresoraForm);
$("impresora-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const f = $("impresora-form").elements;
  const body = { nombre: f.nombre.value.trim(), host: f.host.value.trim(), puerto: Number(f.puerto.value), columnas: Number(f.columnas.value),
                 codigo_pagina: f.codigo_pagina.value, qr: f.qr.value, respaldo_id: f.respaldo_id.value ? Number(f.respaldo_id.value) : null,
                 cajon: f.cajon.checked };
  try {
    if (editandoImpresora) await Staff.api("PATCH", "/impresoras/" + editandoImpresora.id, body);
    else await Staff.api("POST", "/impresoras", body);
    resetImpresoraForm();
    if (impresorasPoller) impresorasPoller.now();
  } catch (e) { if (e.status !== 401) $("impresora-error").textContent = impresoraMessage(e); }
});

async function prueba(p) {
  try { await Staff.api("POST", "/impresoras/" + p.id + "/prueba"); toast("Página de prueba enviada a " + p.nombre + ".", true); if (impresorasPoller) impresorasPoller.now(); }
  catch (e) { if (e.status !== 401) toast(impresoraMessage(e)); }
}
async function borrarImpresora(p) {
  if (!confirm("¿Borrar la impresora " + p.nombre + "?")) return;
  try { await Staff.api("DELETE", "/impresoras/" + p.id); if (impresorasPoller) impresorasPoller.now(); }
  catch (e) { if (e.status !== 401) toast(impresoraMessage(e)); }
}
async function loadTrabajos(p) {
  let list;
  try { list = await Staff.api("GET", "/impresoras/" + p.id + "/trabajos"); } catch (e) { if (e.status !== 401) toast(impresoraMessage(e)); return; }
  $("trabajos").hidden = false;
  $("trabajos-titulo").textContent = "Trabajos de " + p.nombre;
  const rows = list.map(t => {
    const tr = Staff.el("tr", t.estado === "pendiente" ? "pendiente" : "");
    tr.dataset.id = String(t.id);
    const what = (TIPO_TRABAJO[t.tipo] || t.tipo) + (t.reimpresion_de ? " (reimpresión)" : "") + (t.respaldo_de ? " (respaldo)" : "");
    const acts = Staff.el("td");
    acts.append(button("Reimprimir", "quiet", async () => {
      try { await Staff.api("POST", "/trabajos/" + t.id + "/reimprimir"); loadTrabajos(p); } catch (e) { if (e.status !== 401) toast(impresoraMessage(e)); }
    }));
    tr.append(Staff.el("td", "num", String(t.id)), Staff.el("td", null, what), Staff.el("td", null, Staff.clock(new Date(t.creado))),
              Staff.el("td", null, t.estado === "impreso" ? "Impreso" : "Esperando" + (t.intentos ? " (" + t.intentos + " intentos)" : "")), acts);
    return tr;
  });
  if (rows.length === 0) { const tr = Staff.el("tr"), td = Staff.el("td", "vacio", "Ningún trabajo todavía."); td.colSpan = 5; tr.append(td); rows.push(tr); }
  $("trabajos-lista").replaceChildren(...rows);
}

async function loadEstaciones() {
  let estaciones, platos;
  try { [estaciones, platos] = await Promise.all([Staff.api("GET", "/estaciones"), Staff.api("GET", "/platos")]); }
  catch (e) { if (e.status !== 401) toast(impresoraMessage(e)); return; }
  const tipos = [...new Set(platos.map(p => p.tipo))].sort((a, b) => a.localeCompare(b, "es"));
  $("estacion-categorias").replaceChildren(...tipos.map(t => {
    const label = Staff.el("label", "check");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = t;
    label.append(box, " " + t);
    return label;
  }));
  const name = id => (impresorasList.find(p => p.id === id) || {}).nombre || "¿?";
  if (estaciones.length === 0) $("estaciones-lista").replaceChildren(Staff.el("p", "hint", "Sin estaciones: no se imprime nada todavía."));
  else $("estaciones-lista").replaceChildren(...estaciones.map(e => {
    const row = Staff.el("div", "estacion");
    row.dataset.id = String(e.id);
    row.append(Staff.el("strong", null, e.nombre), Staff.el("span", null, " → " + name(e.impresora_id)),
               Staff.el("span", "hint", " · " + (e.categorias.length ? e.categorias.join(", ") : "sin categorías") + (e.por_defecto ? " · por defecto" : "")),
               button("Quitar", "bad", async () => {
                 try { await Staff.api("DELETE", "/estaciones/" + e.id); loadEstaciones(); } catch (err) { if (err.status !== 401) toast(impresoraMessage(err)); }
               }));
    row.lastChild.setAttribute("aria-label", "Quitar la estación " + e.nombre);
    return row;
  }));
}
$("estacion-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const f = $("estacion-form").elements;
  const body = { nombre: f.nombre.value.trim(), impresora_id: Number(f.impresora_id.value),
                 categorias: [...$("estacion-categorias").querySelectorAll("input:checked")].map(b => b.value), por_defecto: f.por_defecto.checked };
  try {
    await Staff.api("POST", "/estaciones", body);
    $("estacion-form").reset();
    $("estacion-error").textContent = "";
    loadEstaciones();
  } catch (e) { if (e.status !== 401) $("estacion-error").textContent = impresoraMessage(e); }
});

// The close of the day (Cierre de caja): one business day's cash report,
// the same figures as GET /informes/caja, printable, and the day's invoices
// as CSV for the accountant.
function filas(tbody, rows, vacio, columnas) {
  const trs = rows.map(cells => {
    const tr = Staff.el("tr");
    cells.forEach(([text, num]) => tr.append(Staff.el("td", num ? "num" : null, text)));
    return tr;
  });
  if (trs.length === 0) {
    const tr = Staff.el("tr");
    const td = Staff.el("td", "vacio", vacio);
    td.colSpan = columnas;
    tr.append(td);
    trs.push(tr);
  }
  $(tbody).replaceChildren(...trs);
}

async function loadCierre() {
  const dia = $("cierre-dia").value || today();
  let c;
  try { c = await Staff.api("GET", "/informes/caja?desde=" + dia + "&hasta=" + dia); }
  catch (e) { if (e.status !== 401) toast(e.error.message); return; }
  $("cierre-fecha").textContent = dia.slice(8) + "/" + dia.slice(5, 7) + "/" + dia.slice(0, 4);
  const cifra = (label, value, id) => { const d = Staff.el("div", "cifra"); d.append(Staff.el("span", null, label), Staff.el("strong", null, value)); if (id) d.id = id; return d; };
  $("cierre-cifras").replaceChildren(cifra("Facturas", String(c.facturas), "cierre-facturas"), cifra("Total", Staff.money(c.total), "cierre-total"),
    cifra("Efectivo en caja", Staff.money(c.efectivo_en_caja), "cierre-efectivo"), cifra("Descuentos", Staff.money(c.total_descuentos), "cierre-total-descuentos"),
    cifra("Anuladas", String(c.anuladas)), cifra("Pedidos en línea", String(c.pedidos)));
  filas("cierre-metodos", c.por_metodo.map(m => [[METODO[m.metodo] || m.metodo], [Staff.money(m.importe), true], [Staff.money(m.propinas), true]]), "Ningún cobro.", 3);
  filas("cierre-iva", c.iva.map(p => [[p.iva + " %"], [Staff.money(p.base), true], [Staff.money(p.cuota), true]]), "Nada.", 3);
  filas("cierre-propinas", c.propinas_por_camarero.map(p => [[p.nombre], [Staff.money(p.propinas), true]]), "Ninguna.", 2);
  filas("cierre-descuentos", c.descuentos.map(d => [[d.cantidad + " × " + d.nombre + (d.porcentaje === 100 ? " (invitación)" : " (" + d.porcentaje + " %)")],
    [d.motivo + (d.gerente ? " · " + d.gerente : "")], [Staff.money(d.importe), true]]), "Ninguno.", 3);
  filas("cierre-anuladas", c.lineas_anuladas.map(l => [[l.cantidad + " × " + l.nombre], [l.motivo], [l.gerente || ""]]), "Ninguna.", 3);
}

async function descargarCSV() {
  const dia = $("cierre-dia").value || today();
  let text;
  try { text = await Staff.api("GET", "/facturas?desde=" + dia + "&hasta=" + dia + "&formato=csv"); }
  catch (e) { if (e.status !== 401) toast(e.error.message); return; }
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = "facturas-" + dia + ".csv";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// VERI*FACTU: how the sending of the billing records to the AEAT stands,
// with a notice while records have waited over an hour, while any is
// rejected, and when the certificate expires within 30 days or has expired.
let verifactuPoller = null;
const ENVIO = { no: "No se envían: los registros se guardan y se enviarán cuando se active el envío.",
  pruebas: "Se envían al entorno de PRUEBAS de la AEAT (no tienen validez fiscal).", produccion: "Se envían a la AEAT." };

function fecha(date) {
  try { return new Intl.DateTimeFormat("es-ES", { timeZone: zona || undefined, day: "2-digit", month: "2-digit", year: "numeric" }).format(date); }
  catch (e) { return date.toLocaleDateString("es-ES"); }
}
function cuando(text, seconds) {
  const d = new Date(text);
  const hoy = fecha(new Date()) === fecha(d);
  return (hoy ? "hoy" : fecha(d)) + " a las " + Staff.clock(d, seconds);
}

let rechazadosVistos = -1;
function renderVerifactu(e) {
  const avisos = [];
  const aviso = (text, kind) => { const p = Staff.el("p", "notice " + (kind || ""), text); avisos.push(p); };
  const r = e.registros;
  const now = Date.now();
  if (e.envio !== "no" && e.ultimo_error && (!e.ultimo_envio || new Date(e.ultimo_error.fecha) >= new Date(e.ultimo_envio.fecha))) {
    aviso("No se puede enviar a la AEAT: " + e.ultimo_error.mensaje + "."
      + (e.proximo_envio ? " Se intentará otra vez " + cuando(e.proximo_envio, true) + "." : "") + " Se sigue facturando con normalidad.");
  }
  if (e.envio !== "no" && e.esperando_desde && now - new Date(e.esperando_desde).getTime() > 3600 * 1000) {
    aviso(r.sin_enviar + (r.sin_enviar === 1 ? " registro espera" : " registros esperan") + " desde " + cuando(e.esperando_desde)
      + " (más de una hora): compruebe la conexión a internet.");
  }
  if (r.rechazados > 0) {
    aviso(r.rechazados + (r.rechazados === 1 ? " registro rechazado" : " registros rechazados") + " por la AEAT: véalos abajo.", "bad");
  }
  if (e.certificado) {
    const caduca = new Date(e.certificado.caduca);
    const dias = Math.floor((caduca.getTime() - now) / 86400000);
    if (caduca.getTime() <= now) aviso("El certificado caducó el " + fecha(caduca) + ": la AEAT no aceptará los envíos. Renuévelo.", "bad");
    else if (dias < 30) aviso("El certificado caduca el " + fecha(caduca) + " (en " + (dias === 0 ? "menos de un día" : dias + (dias === 1 ? " día" : " días")) + "): renuévelo antes.");
  }
  if (avisos.length === 0 && e.envio !== "no" && r.sin_enviar === 0 && e.ultimo_envio) aviso("Todos los registros están enviados a la AEAT.", "ok");
  $("vf-avisos").replaceChildren(...avisos);
  $("vf-modo").textContent = ENVIO[e.envio] || e.envio;
  const cifra = (label, value) => { const d = Staff.el("div", "cifra"); d.append(Staff.el("span", null, label), Staff.el("strong", null, value)); return d; };
  $("vf-cifras").replaceChildren(cifra("Sin enviar", String(r.sin_enviar)), cifra("Aceptados", String(r.aceptados)),
    cifra("Aceptados con errores", String(r.aceptados_con_errores)), cifra("Rechazados", String(r.rechazados)));
  const datos = [];
  const dato = (label, value) => datos.push(Staff.el("dt", null, label), Staff.el("dd", null, value));
  if (e.url) dato("Servicio", e.url);
  dato("Último envío", e.ultimo_envio ? cuando(e.ultimo_envio.fecha) + " · " + ({ Correcto: "correcto", ParcialmenteCorrecto: "parcialmente correcto",
    Incorrecto: "incorrecto" }[e.ultimo_envio.estado] || e.ultimo_envio.estado) + " · " + e.ultimo_envio.registros
    + (e.ultimo_envio.registros === 1 ? " registro" : " registros") + (e.ultimo_envio.csv ? " · CSV " + e.ultimo_envio.csv : "") : "Ninguno todavía");
  if (e.esperando_desde) dato("Esperan desde", cuando(e.esperando_desde));
  if (e.proximo_envio) dato("Próximo envío", cuando(e.proximo_envio, true));
  if (e.ultimo_error) dato("Último error", cuando(e.ultimo_error.fecha) + ": " + e.ultimo_error.mensaje);
  if (e.certificado) dato("Certificado", e.certificado.titular + (e.certificado.nif ? " (" + e.certificado.nif + ")" : "") + " · caduca el " + fecha(new Date(e.certificado.caduca)));
  $("vf-datos").replaceChildren(...datos);
  if (r.rechazados !== rechazadosVistos) { rechazadosVistos = r.rechazados; loadRechazados(); }
}

async function loadRechazados() {
  let lista;
  try { lista = (await Staff.api("GET", "/verifactu/registros?estado=rechazado&limite=5000")).registros; }
  catch (e) { if (e.status !== 401) toast(e.error.message); return; }
  const rows = lista.map(reg => {
    const tr = Staff.el("tr");
    const alta = reg.tipo === "alta";
    tr.append(Staff.el("td", "numero", alta ? reg.NumSerieFactura : reg.NumSerieFacturaAnulada), Staff.el("td", null, alta ? "Alta" : "Anulación"),
      Staff.el("td", null, cuando(reg.FechaHoraHusoGenRegistro)), Staff.el("td", "num", reg.envio.codigo == null ? "" : String(reg.envio.codigo)),
      Staff.el("td", null, reg.envio.descripcion || ""));
    return tr;
  });
  if (rows.length === 0) {
    const tr = Staff.el("tr");
    const td = Staff.el("td", "vacio", "Ninguno.");
    td.colSpan = 5;
    tr.append(td);
    rows.push(tr);
  }
  $("vf-rechazados").replaceChildren(...rows);
}

// Tables: add and retire them, and each one's card with its QR code (the
// table's own link) to print and leave on the table; a new code on request.
const qrs = new Map();   // enlace → object URL of its QR code
let restaurante = "", publica = null;
Staff.settings.then(a => {
  restaurante = (a && a.nombreRestaurante) || "";
  publica = (a && a.urlPublica) || null;
  if (!$("mesas").hidden) direccionDeLasTarjetas();
});

/** The address the tables' cards carry (urlPublica, else this page's), and a warning when guests on mobile data cannot open it. */
function direccionDeLasTarjetas() {
  const base = (publica || location.origin).replace(/\/$/, "");
  $("mesas-direccion").textContent = "Las tarjetas llevan la dirección " + base + "/m/…";
  let local = false;
  try {
    const host = new URL(base).hostname;
    local = host === "localhost" || host.endsWith(".local") || /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[?::1\]?$|\[?f[cd])/.test(host);
  } catch (e) { local = true; }
  $("mesas-direccion-aviso").hidden = !local;
  $("mesas-direccion-aviso").textContent = local
    ? "Es una dirección de la red del restaurante: un cliente con datos móviles no podrá abrirla. Configure la dirección pública (urlPublica) antes de imprimir las tarjetas." : "";
}

async function loadMesas() {
  direccionDeLasTarjetas();
  let sala;
  try { sala = await Staff.api("GET", "/mesas"); } catch (e) { if (e.status !== 401) toast(e.error.message); return; }
  if (sala.mesas.length === 0) {
    $("tarjetas").replaceChildren(Staff.el("p", "empty", "Todavía no hay mesas: añada la primera arriba."));
    return;
  }
  $("tarjetas").replaceChildren(...sala.mesas.map(tarjeta));
}

function tarjeta(m) {
  const card = Staff.el("article", "tarjeta");
  card.dataset.id = String(m.id);
  if (restaurante) card.append(Staff.el("p", "restaurante", restaurante));
  card.append(Staff.el("h3", null, "Mesa " + m.nombre));
  const img = document.createElement("img");
  img.alt = "Código QR de la mesa " + m.nombre;
  img.width = img.height = 200;
  card.append(img, Staff.el("p", "instrucciones", "Escanee el código: la carta, pedir desde la mesa y pedir la cuenta."));
  const info = Staff.el("p", "info no-print", (m.zona || "Sala") + " · " + m.plazas + " plazas");
  const buttons = Staff.el("div", "buttons no-print");
  buttons.append(button("Nuevo código", "quiet", () => confirmEnlace(m)),
                 button("Retirar", "bad", () => retirarMesa(m)));
  card.append(info, buttons);
  if (qrs.has(m.enlace)) img.src = qrs.get(m.enlace);
  else Staff.image("/mesas/" + m.id + "/qr.png").then(url => { qrs.set(m.enlace, url); img.src = url; }).catch(() => { img.alt = "Sin código"; });
  return card;
}

function confirmEnlace(m) {
  $("nuevo-enlace-mesa").textContent = m.nombre;
  $("nuevo-enlace-error").textContent = "";
  $("nuevo-enlace-si").onclick = async () => {
    try {
      await Staff.api("POST", "/mesas/" + m.id + "/enlace");
      $("nuevo-enlace").close();
      loadMesas();
    } catch (e) { if (e.status !== 401) $("nuevo-enlace-error").textContent = e.error.message; }
  };
  $("nuevo-enlace").showModal();
}

/** Retires a table after asking (its printed card stops working). */
function retirarMesa(m) {
  $("retirar-mesa-nombre").textContent = m.nombre;
  $("retirar-mesa-error").textContent = "";
  $("retirar-mesa-si").onclick = async () => {
    try {
      await Staff.api("DELETE", "/mesas/" + m.id);
      $("retirar-mesa").close();
      loadMesas();
    } catch (e) {
      if (e.status !== 401) {
        $("retirar-mesa-error").textContent = e.error.code === "mesa_ocupada"
          ? "La mesa " + m.nombre + " no está libre: retírela cuando se vaya su grupo." : e.error.message;
      }
    }
  };
  $("retirar-mesa").showModal();
}

$("mesa-nueva").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = $("mesa-nueva");
  $("mesa-error").textContent = "";
  try {
    await Staff.api("POST", "/mesas", { nombre: form.nombre.value, zona: form.zona.value, plazas: Number(form.plazas.value) });
    form.nombre.value = "";
    form.nombre.focus();
    loadMesas();
  } catch (e) {
    if (e.status === 401) return;
    const field = e.error && e.error.field;
    $("mesa-error").textContent = e.error.code === "mesa_duplicada" ? "Ya hay una mesa con ese nombre."
      : field === "nombre" ? "Escriba el nombre de la mesa (hasta 20 caracteres)."
      : field === "zona" ? "La zona admite hasta 40 caracteres."
      : field === "plazas" ? "Las plazas van de 1 a 50." : e.error.message;
  }
});
$("imprimir-tarjetas").addEventListener("click", () => window.print());

// Sales: the report of GET /informes/ventas over the days chosen (the last 7 by default), a bar per day drawn as SVG.
function daysAgo(n) {
  const d = new Date(Date.now() - n * 86400000);
  return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
}

async function loadVentas() {
  if (!$("ventas-desde").value) $("ventas-desde").value = daysAgo(6);
  if (!$("ventas-hasta").value) $("ventas-hasta").value = today();
  let informe;
  try { informe = await Staff.api("GET", "/informes/ventas?desde=" + $("ventas-desde").value + "&hasta=" + $("ventas-hasta").value); }
  catch (e) {
    if (e.status !== 401) $("ventas-cifras").replaceChildren(Staff.el("p", "error",
      e.error && e.error.field === "hasta" ? "Elija un «hasta» que no sea antes del «desde» (como mucho 366 días)." : "No se pudo leer el informe."));
    return;
  }
  const cifra = (label, value) => { const d = Staff.el("div", "cifra"); d.append(Staff.el("span", null, label), Staff.el("strong", null, value)); return d; };
  // The whole: the dining room's invoices in force and the online orders, with the split between them.
  const sala = informe.sala || { facturas: 0, total: 0 };
  const todo = Math.round((sala.total + informe.total) * 100) / 100;
  $("ventas-cifras").replaceChildren(cifra("Ventas", Staff.money(todo)),
    cifra("Sala", Staff.money(sala.total) + " · " + sala.facturas + (sala.facturas === 1 ? " factura" : " facturas")),
    cifra("En línea", Staff.money(informe.total) + " · " + informe.pedidos + (informe.pedidos === 1 ? " pedido" : " pedidos")),
    cifra("Ticket medio en línea", Staff.money(informe.ticket_medio)), cifra("Rechazados", String(informe.rechazados)));
  $("ventas-grafica").replaceChildren(barChart(informe.por_dia));
  const rows = informe.platos.slice(0, 15).map(p => {
    const tr = Staff.el("tr");
    tr.append(Staff.el("td", null, p.nombre), Staff.el("td", "num", String(p.cantidad)), Staff.el("td", "num", Staff.money(p.total)));
    return tr;
  });
  if (rows.length === 0) {
    const tr = Staff.el("tr"), td = Staff.el("td", "vacio", "Ningún pedido esos días.");
    td.colSpan = 3;
    tr.append(td);
    rows.push(tr);
  }
  $("ventas-platos").replaceChildren(...rows);
}

/** A bar per day (the dining room's part below, the online orders' above), labelled with the day and the whole; names and numbers go in as text. */
function barChart(days) {
  const NS = "http://www.w3.org/2000/svg";
  const make = (tag, attrs, text) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const width = Math.max(320, days.length * 110), height = 240, top = 24, bottom = 40;
  const whole = d => (d.sala || 0) + d.total;
  const max = Math.max(1, ...days.map(whole));
  const svg = make("svg", { viewBox: "0 0 " + width + " " + height, width, height, role: "img",
                            "aria-label": "Ventas por día: " + days.map(d => d.fecha + " " + Staff.money(whole(d)) + " (sala " + Staff.money(d.sala || 0)
                              + ", en línea " + Staff.money(d.total) + ")").join(", ") });
  const slot = width / Math.max(1, days.length);
  days.forEach((d, i) => {
    const scale = v => Math.round((height - top - bottom) * v / max);
    const hs = scale(d.sala || 0), hl = scale(d.total), h = hs + hl;
    const x = i * slot + slot * 0.15, y = height - bottom - h;
    const title = d.fecha + ": " + Staff.money(whole(d)) + " (sala " + Staff.money(d.sala || 0) + "; en línea " + Staff.money(d.total) + ", " + d.pedidos + " pedidos)";
    const salaBar = make("rect", { x, y: height - bottom - Math.max(hs, 1), width: slot * 0.7, height: Math.max(hs, 1), rx: 4, class: "bar sala" });
    salaBar.append(make("title", {}, title));
    svg.append(salaBar);
    if (hl > 0) {
      const online = make("rect", { x, y, width: slot * 0.7, height: hl, rx: 4, class: "bar linea" });
      online.append(make("title", {}, title));
      svg.append(online);
    }
    svg.append(
      make("text", { x: x + slot * 0.35, y: y - 6, "text-anchor": "middle", class: "valor" }, whole(d) ? Math.round(whole(d)) + " €" : ""),
      make("text", { x: x + slot * 0.35, y: height - bottom + 18, "text-anchor": "middle", class: "dia" }, d.fecha.slice(8) + "/" + d.fecha.slice(5, 7)));
  });
  return svg;
}

async function loadFacturas() {
  const dia = $("facturas-dia").value || today();
  let list;
  try { list = await Staff.api("GET", "/facturas?desde=" + dia + "&hasta=" + dia); }
  catch (e) { if (e.status !== 401) toast(e.error.message); return; }
  const rows = list.map(f => {
    const tr = Staff.el("tr", f.estado === "emitida" ? "" : "anulada");
    tr.dataset.id = String(f.id);
    // A full invoice names its customer; an online order's invoice its order; a replaced one the invoice that replaced it.
    const numero = Staff.el("td", "numero", f.numero);
    if (f.tipo && f.tipo !== "F2") numero.append(Staff.el("span", "tipo", f.tipo === "F1" ? " · completa" : " · completa (sustituye a " + (f.sustituye || []).join(", ") + ")"));
    if (f.cliente) numero.append(Staff.el("div", "cliente", f.cliente.nombre + " · " + f.cliente.nif));
    const estado = { emitida: "Emitida", anulada: "Anulada", sustituida: "Sustituida por " + (f.sustituida_por || "") }[f.estado] || f.estado;
    tr.append(numero, Staff.el("td", null, Staff.clock(new Date(f.fecha))),
              Staff.el("td", null, f.mesa !== null && f.mesa !== undefined ? f.mesa : f.pedido_id ? "Pedido #" + f.pedido_id : ""),
              Staff.el("td", null, METODO[f.metodo] || f.metodo), Staff.el("td", "num", Staff.money(f.importe_total)),
              Staff.el("td", "estado", estado));
    const actions = Staff.el("td");
    if (f.estado === "emitida") actions.append(button("Anular", "bad", () => confirmAnular(f)));
    tr.append(actions);
    return tr;
  });
  if (rows.length === 0) {
    const tr = Staff.el("tr");
    const td = Staff.el("td", "vacio", "No hay facturas ese día.");
    td.colSpan = 7;
    tr.append(td);
    rows.push(tr);
  }
  $("facturas-lista").replaceChildren(...rows);
  const emitidas = list.filter(f => f.estado === "emitida");
  const anuladas = list.filter(f => f.estado === "anulada").length, sustituidas = list.filter(f => f.estado === "sustituida").length;
  $("facturas-resumen").textContent = emitidas.length + (emitidas.length === 1 ? " emitida · " : " emitidas · ")
    + Staff.money(emitidas.reduce((t, f) => t + f.importe_total, 0)) + (anuladas ? " · " + anuladas + (anuladas === 1 ? " anulada" : " anuladas") : "")
    + (sustituidas ? " · " + sustituidas + (sustituidas === 1 ? " sustituida por una completa" : " sustituidas por completas") : "");
}

function confirmAnular(f) {
  $("anular-numero").textContent = f.numero;
  $("anular-motivo").value = "";
  $("anular-error").textContent = "";
  $("anular-motivos").replaceChildren(...MOTIVOS.map(m => button(m, "quiet", () => { $("anular-motivo").value = m; })));
  $("anular-si").onclick = async () => {
    const motivo = $("anular-motivo").value.trim();
    if (!motivo) { $("anular-error").textContent = "Escriba o elija el motivo."; return; }
    try {
      await Staff.api("POST", "/facturas/" + f.id + "/anular", { motivo });
      $("anular").close();
      loadFacturas();
    } catch (e) {
      if (e.status !== 401) $("anular-error").textContent = e.error && e.error.code === "transicion_no_valida" ? "Esa factura ya estaba anulada." : e.error.message;
    }
  };
  $("anular").showModal();
}

$("ver-carta").addEventListener("click", () => showView("carta"));
$("ver-facturas").addEventListener("click", () => showView("facturas"));
$("ver-ventas").addEventListener("click", () => showView("ventas"));
$("ver-mesas").addEventListener("click", () => showView("mesas"));
$("ver-verifactu").addEventListener("click", () => showView("verifactu"));
$("ver-impresoras").addEventListener("click", () => showView("impresoras"));
$("ver-cierre").addEventListener("click", () => showView("cierre"));
$("ver-personal").addEventListener("click", () => showView("personal"));
$("cierre-dia").addEventListener("change", () => { $("cierre-dia").dataset.tocado = "si"; loadCierre(); });
$("cierre-dia").value = today();
$("cierre-imprimir").addEventListener("click", () => {
  document.body.classList.add("imprimir-cierre");
  window.print();
  document.body.classList.remove("imprimir-cierre");
});
$("cierre-csv").addEventListener("click", descargarCSV);
// The close on a thermal printer (where the restaurant has printers).
async function cierrePrinters() {
  let list = [];
  try { list = await Staff.api("GET", "/impresoras"); } catch (e) { /* no printers offered */ }
  $("cierre-impresora-en").hidden = list.length === 0;
  $("cierre-impresora").replaceChildren(...list.map(p => new Option(p.nombre, String(p.id))));
}
$("cierre-a-impresora").addEventListener("click", async () => {
  const dia = $("cierre-dia").value || today();
  try {
    await Staff.api("POST", "/informes/caja/imprimir?desde=" + dia + "&hasta=" + dia, { impresora_id: Number($("cierre-impresora").value) });
    toast("Cierre enviado a " + $("cierre-impresora").selectedOptions[0].textContent + ".", true);
  } catch (e) { if (e.status !== 401) toast(e.error && e.error.message || "No se pudo imprimir."); }
});
$("ventas-desde").addEventListener("change", loadVentas);
$("ventas-hasta").addEventListener("change", loadVentas);
$("facturas-dia").addEventListener("change", () => { $("facturas-dia").dataset.tocado = "si"; loadFacturas(); });
$("facturas-dia").value = today();

// The server's backups: a notice on every tab while something needs the owner
// (no second disk, a folder failing, the newest good copy older than 26 hours).
let copiasPoller = null;
function renderCopias(c) {
  const aviso = $("copias-aviso");
  aviso.hidden = !c.aviso;
  if (c.aviso) aviso.textContent = "Copias de seguridad: " + c.aviso;
}

Staff.login(["gerente"], async (me) => {
  yo = me;
  try { alergenos = await Staff.api("GET", "/alergenos"); } catch (e) { alergenos = []; }
  checkboxes($("alergenos"), "alergeno");
  checkboxes($("trazas"), "traza");
  poller = Staff.poll("/platos", 5000, render);
  copiasPoller = Staff.poll("/copias", 60000, renderCopias);
}, () => {
  if (poller) poller.stop();
  if (copiasPoller) copiasPoller.stop();
  poller = copiasPoller = null;
});
