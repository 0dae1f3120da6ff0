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

function render(platos) {
  const main = $("carta");
  const tipos = [...new Set(platos.map(p => p.tipo))];
  order = tipos;
  $("tipos").replaceChildren(...tipos.map(t => { const o = document.createElement("option"); o.value = t; return o; }));
  const sections = [];
  for (const tipo of tipos) {
    const h = Staff.el("h2", "", tipo);
    const list = Staff.el("section");
    list.append(...platos.filter(p => p.tipo === tipo).map(row));
    sections.push(h, list);
  }
  main.replaceChildren(...sections);
}

function toast(text) {
  const t = $("action-error");
  t.textContent = text;
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

function clearErrors() { for (const e of document.querySelectorAll("#plato [data-error]")) e.textContent = ""; }

function showError(e) {
  const f = e.error && e.error.field;
  const place = document.querySelector('#plato [data-error="' + (f || "") + '"]') || $("form-error");
  place.textContent = e.status === 409 && e.error.code === "nombre_en_uso" ? "Ya hay un plato con ese nombre en la carta." : e.error.message;
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
$("nuevo").addEventListener("click", () => openEditor(null));

$("plato").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  const form = $("plato");
  const precio = Number(form.precio.value.trim().replace(",", "."));
  const body = {
    nombre: form.nombre.value, descripcion: form.descripcion.value, tipo: form.tipo.value,
    precio: form.precio.value.trim() === "" || Number.isNaN(precio) ? form.precio.value : precio,
    disponible: form.disponible.checked,
    alergenos: [...form.querySelectorAll("input[name=alergeno]:checked")].map(b => b.value),
    trazas: [...form.querySelectorAll("input[name=traza]:checked")].map(b => b.value),
    ingredientes: [...document.querySelectorAll("#ingredientes .ingrediente")]
      .map(r => ({ nombre: r.querySelector(".ing-nombre").value, cantidad: r.querySelector(".ing-cantidad").value }))
      .filter(i => i.nombre.trim() !== "" || i.cantidad.trim() !== ""),
  };
  let saved;
  try {
    saved = editing ? await Staff.api("PATCH", "/platos/" + editing.id, body) : await Staff.api("POST", "/platos", body);
  } catch (e) {
    if (e.status !== 401) showError(e);
    return;
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

Staff.login(["gerente"], async () => {
  try { alergenos = await Staff.api("GET", "/alergenos"); } catch (e) { alergenos = []; }
  checkboxes($("alergenos"), "alergeno");
  checkboxes($("trazas"), "traza");
  poller = Staff.poll("/platos", 5000, render);
}, () => { if (poller) poller.stop(); poller = null; });
