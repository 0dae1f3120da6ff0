// The guests' menu at /: the menu by category with photos (lazy-loaded,
// each photo's address carries its version so its ETag serves it again),
// prices the Spanish way, the allergens in words, search that ignores
// accents as the API does (GET /carta?q=), a "sin …" filter by allergen
// (&trazas=excluir leaves out traces too), sold-out dishes shown as such.
// Made for a phone first. Everything from the API goes in as text.
"use strict";
const $ = (id) => document.getElementById(id);
let alergenos = [];   // [{codigo, nombre}]
let loading = 0;

function nombreDe(codigo) { const a = alergenos.find(x => x.codigo === codigo); return a ? a.nombre : codigo; }

function query() {
  const params = new URLSearchParams();
  const q = $("q").value.trim();
  if (q) params.set("q", q);
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
  const count = carta.reduce((n, s) => n + s.platos.length, 0);
  $("resumen").textContent = count === 0 ? "Ningún plato con esa búsqueda y esos filtros." : count === 1 ? "1 plato" : count + " platos";
}

async function load() {
  const mine = ++loading;
  try {
    const response = await fetch(query(), { cache: "no-store" });
    if (!response.ok) throw new Error("status " + response.status);
    const carta = await response.json();
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
// The menu changes (sold out, prices): look again every minute while the page is open.
setInterval(load, 60000);
start();
