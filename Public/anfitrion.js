// The host stand: add a party and hand the guest their link at once, follow
// the list (GET /reservations/eventos, polling while it is down), call,
// seat or remove a party. Names are always inserted as text, never as HTML.
"use strict";
const POLL_MS = 3000;
let live = null, last = null, size = 2, removing = null, shown = null;

function minutesSince(iso, nowMs) { return Math.max(0, Math.floor((nowMs - Date.parse(iso)) / 60000)); }
function people(n) { return n === 1 ? "1 persona" : n + " personas"; }

function showError(e) {
  const toast = document.getElementById("action-error");
  toast.textContent = e.status === 404 ? "Ese grupo ya no está en la lista." : e.error.message;
  toast.hidden = false;
  setTimeout(() => { toast.hidden = true; }, 4000);
}

async function act(method, path, body) {
  try {
    const result = await Staff.api(method, path, body);
    if (live) live.now();
    return result;
  } catch (e) {
    if (e.status !== 401) showError(e);
    if (live) live.now();
    return null;
  }
}

function partyItem(party, nowMs) {
  const li = Staff.el("li");
  li.dataset.id = String(party.id);
  const waited = minutesSince(party.arrivalTime, nowMs);
  const late = !party.isReady && waited > party.quotedMinutes;
  if (party.isReady) li.classList.add("ready");
  if (late) li.classList.add("late");
  const who = Staff.el("div", "who");
  who.append(Staff.el("span", "name", party.name), Staff.el("span", "people", people(party.size)));
  if (party.isReady) who.append(Staff.el("span", "tag ready", "Lista"));
  if (late) who.append(Staff.el("span", "tag late", "Tarde"));
  // A called party: how long since it was called, and since it arrived.
  const times = party.isReady && party.readyTime
    ? Staff.el("div", "times", "llamado hace " + minutesSince(party.readyTime, nowMs) + " min · llegó hace " + waited + " min ("
               + Staff.clock(new Date(party.arrivalTime)) + ")")
    : Staff.el("div", "times", waited + " min de " + party.quotedMinutes + " · " + Staff.clock(new Date(party.arrivalTime)));
  const buttons = Staff.el("div", "buttons");
  if (!party.isReady) buttons.append(Staff.button("Lista", "ok", () => act("POST", "/reservations/" + party.id + "/ready")));
  buttons.append(Staff.button("Sentar", "go", () => chooseTable(party)));
  buttons.append(Staff.button("Enlace", "quiet", () => showLink(party.id)));
  buttons.append(Staff.button("Quitar", "quiet", () => askRemove(party)));
  li.append(who, times, buttons);
  return li;
}

// Sentar asks which table: the free ones that hold the party first (smallest first), then the other free
// ones; choosing one seats the party there (its check opens on the waiters' phones, the party leaves the list).
// "Sin mesa" takes it off the list on purpose without a table, as before (the floor seats it later).
async function chooseTable(party) {
  const dialog = document.getElementById("sentar");
  document.getElementById("sentar-nombre").textContent = party.name + " · " + (party.size === 1 ? "1 persona" : party.size + " personas");
  document.getElementById("sentar-error").textContent = "";
  const list = document.getElementById("sentar-mesas");
  list.replaceChildren(Staff.el("p", "hint", "Buscando mesas libres…"));
  document.getElementById("sentar-sin-mesa").onclick = () => { dialog.close(); seatLater(party); };
  dialog.showModal();
  let sala;
  try { sala = await Staff.api("GET", "/mesas"); } catch (e) {
    list.replaceChildren(Staff.el("p", "error", "No se pudieron leer las mesas: elija «Sin mesa» o inténtelo otra vez."));
    return;
  }
  const free = sala.mesas.filter(m => m.estado === "libre" && !m.unida_a);
  const fits = free.filter(m => m.plazas >= party.size).sort((a, b) => (a.plazas - b.plazas) || a.nombre.localeCompare(b.nombre, "es", { numeric: true }));
  const small = free.filter(m => m.plazas < party.size).sort((a, b) => (b.plazas - a.plazas) || a.nombre.localeCompare(b.nombre, "es", { numeric: true }));
  const tableButton = (m) => {
    const b = Staff.button("", "mesa" + (m.plazas >= party.size ? " cabe" : " pequena"), async () => {
      try {
        await Staff.api("POST", "/mesas/" + m.id + "/sentar", { comensales: party.size, reservation_id: party.id });
        dialog.close();
        if (live) live.now();
      } catch (e) {
        if (e.status === 401) return;
        document.getElementById("sentar-error").textContent = e.error && e.error.code === "mesa_no_libre"
          ? "La mesa " + m.nombre + " ya no está libre: elija otra." : (e.error && e.error.message) || "No se pudo sentar.";
        chooseTable(party);
      }
    });
    b.append(Staff.el("strong", null, m.nombre), Staff.el("span", null, m.plazas + " plazas" + (m.zona ? " · " + m.zona : "")));
    b.setAttribute("aria-label", "Mesa " + m.nombre + ", " + m.plazas + " plazas" + (m.zona ? ", " + m.zona : ""));
    return b;
  };
  const parts = [];
  if (fits.length) parts.push(...fits.map(tableButton));
  else parts.push(Staff.el("p", "hint", "No hay ninguna mesa libre para " + party.size + "."));
  if (small.length) parts.push(Staff.el("p", "hint", "Libres pero más pequeñas (para juntarlas en la sala):"), ...small.map(tableButton));
  list.replaceChildren(...parts);
}

// Sentar can be undone for a few seconds: the party leaves the list on the
// screen at once, and the seat is sent when the time is up (or at once if
// the page is being closed).
const UNDO_MS = 5000;
let seating = null;   // {party, timer}

function seatLater(party) {
  if (seating) seatNow();
  seating = { party, timer: setTimeout(seatNow, UNDO_MS) };
  document.getElementById("undo-text").textContent = "Sentado: " + party.name;
  document.getElementById("undo").hidden = false;
  if (last) render(last);
}

function seatNow() {
  if (!seating) return;
  const { party, timer } = seating;
  clearTimeout(timer);
  seating = null;
  document.getElementById("undo").hidden = true;
  act("DELETE", "/reservations/" + party.id);
}

document.getElementById("undo-button").addEventListener("click", () => {
  if (!seating) return;
  clearTimeout(seating.timer);
  seating = null;
  document.getElementById("undo").hidden = true;
  if (last) render(last);
});
window.addEventListener("pagehide", () => {
  if (!seating) return;
  fetch("/reservations/" + seating.party.id, { method: "DELETE", keepalive: true,
    headers: { "Authorization": "Bearer " + sessionStorage.getItem("comanda.token") } });
  seating = null;
});

function render(data) {
  last = data;
  const nowMs = Date.now();
  const list = document.getElementById("parties");
  const parties = data.reservations.filter(p => !seating || p.id !== seating.party.id);
  if (parties.length === 0) list.replaceChildren(Staff.el("li", "empty", "Nadie en la lista"));
  else list.replaceChildren(...parties.map(p => partyItem(p, nowMs)));
  document.getElementById("count").textContent = String(parties.length);
  document.getElementById("average").textContent = String(data.averageWaitMinutes);
}

/** The guest's link as the guest opens it: from `urlPublica` when set (a phone on mobile data cannot reach the tablet's local address). */
let publica = null;
Staff.settings.then(a => { publica = (a && a.urlPublica) || null; });
function guestLink(path) { return new URL(path, publica || location.href).href; }

/** The party's card: its quote and its guest link with Compartir. */
function showAdded(party) {
  shown = party;
  document.getElementById("added-name").textContent = party.name + " · " + people(party.size);
  document.getElementById("added-quote").textContent = party.quotedMinutes + " min";
  document.getElementById("added-basis").textContent = party.quoteBasis;
  const link = document.getElementById("added-link");
  link.href = guestLink(party.guestUrl);
  link.textContent = guestLink(party.guestUrl);
  document.getElementById("share-result").textContent = "";
  document.getElementById("added").hidden = false;
  // The link and Compartir in view at once, above the form.
  document.getElementById("added").scrollIntoView({ block: "nearest" });
}

async function showLink(id) {
  const party = await act("GET", "/reservations/" + id);
  if (party) showAdded(party);
}

async function share() {
  if (!shown) return;
  const url = guestLink(shown.guestUrl);
  const result = document.getElementById("share-result");
  if (navigator.share) {
    try {
      await navigator.share({ title: "Lista de espera", text: shown.name + ": su sitio en la lista de espera", url });
      result.textContent = "Enlace compartido.";
      return;
    } catch (e) {
      if (e && e.name === "AbortError") return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    result.textContent = "Enlace copiado: péguelo en un mensaje al cliente.";
  } catch (e) {
    // No clipboard either (a page served over plain HTTP): select the link to copy by hand.
    const range = document.createRange();
    range.selectNodeContents(document.getElementById("added-link"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    result.textContent = "Copie el enlace seleccionado.";
  }
}

function askRemove(party) {
  removing = party;
  document.getElementById("remove-name").textContent = party.name;
  document.getElementById("confirm-remove").showModal();
}

// A party that did not stay leaves through its own link, so it counts as
// gone (abandono), not as seated, in the statistics.
document.getElementById("remove-confirm").addEventListener("click", async () => {
  document.getElementById("confirm-remove").close();
  if (!removing) return;
  const party = await act("GET", "/reservations/" + removing.id);
  if (party) await act("DELETE", party.guestUrl);
  removing = null;
});

function showSize() {
  document.getElementById("size-value").textContent = String(size);
  document.querySelector(".size-unit").textContent = size === 1 ? "persona" : "personas";
}
document.getElementById("size-less").addEventListener("click", () => { size = Math.max(1, size - 1); showSize(); });
document.getElementById("size-more").addEventListener("click", () => { size = Math.min(50, size + 1); showSize(); });

document.getElementById("add").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("add-error");
  error.textContent = "";
  const input = document.getElementById("add-name");
  try {
    const party = await Staff.api("POST", "/reservations", { name: input.value, size });
    input.value = "";
    size = 2;
    showSize();
    showAdded(party);
    if (live) live.now();
  } catch (e) {
    if (e.status !== 401) error.textContent = e.error.field === "name" ? "Escriba un nombre (hasta 100 caracteres)." : e.error.message;
  }
});
document.getElementById("share").addEventListener("click", share);
document.getElementById("added-close").addEventListener("click", () => { document.getElementById("added").hidden = true; shown = null; });
for (const b of document.querySelectorAll("dialog [data-close]")) b.addEventListener("click", () => b.closest("dialog").close());

function tickClock() { document.getElementById("clock").textContent = Staff.clock(new Date()); }
tickClock();
setInterval(tickClock, 1000);
setInterval(() => { if (last) render(last); }, 15000);
showSize();

Staff.login(["anfitrion", "gerente"], () => {
  live = Staff.live({ stream: "/reservations/eventos", events: { reservations: render }, poll: "/reservations", ms: POLL_MS, render });
}, () => {
  if (live) live.stop();
  live = null;
});
