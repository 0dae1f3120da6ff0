// The guest's page at /espera/{token}: follows GET /espera/{token}/eventos
// (their place on connect and after every change of the list), and while that
// stream is down polls GET /espera/{token}/estado every 5 s with
// If-None-Match; shows the place in line, the quote and the expected time,
// "¡Su mesa está lista!" when called, and lets the guest leave the list.
// Names are inserted as text, never as HTML.
"use strict";
const token = location.pathname.split("/")[2] || "";
const base = "/espera/" + encodeURIComponent(token);
let live = null;
let last = null;   // the last state shown

function show(estado) {
  last = estado;
  document.getElementById("name").textContent = estado.name;
  document.getElementById("group").textContent = estado.size === 1 ? "1 persona" : estado.size + " personas";
  for (const id of ["waiting", "ready", "seated", "left"]) document.getElementById(id).hidden = estado.status !== id;
  if (estado.status === "waiting") {
    document.getElementById("position").textContent = String(estado.position);
    document.getElementById("ahead").textContent = estado.partiesAhead === 0 ? "Es el siguiente grupo."
      : estado.partiesAhead === 1 ? "Hay 1 grupo delante." : "Hay " + estado.partiesAhead + " grupos delante.";
    document.getElementById("quote").textContent = estado.quotedMinutes + " min";
    document.getElementById("expected").textContent = "Hacia las " + Staff.clock(new Date(estado.estimatedReadyTime))
      + " (llegó a las " + Staff.clock(new Date(estado.arrivalTime)) + ")";
    overdue(estado);
  }
  document.getElementById("leave").hidden = !(estado.status === "waiting" || estado.status === "ready");
  document.getElementById("updated").textContent = "Actualizado " + Staff.clock(new Date(), true);
  // Off the list for good: nothing more will change.
  if ((estado.status === "seated" || estado.status === "left") && live) { live.stop(); live = null; }
}

/**
 * Once the quoted time has passed and the party still waits, say so and give
 * a new estimate: five minutes for each party still ahead and for this one,
 * from now, rounded up to the next five minutes.
 */
function overdue(estado) {
  const longer = document.getElementById("longer");
  const late = estado.status === "waiting" && Date.now() > Date.parse(estado.estimatedReadyTime);
  longer.hidden = !late;
  if (!late) return;
  const step = 5 * 60000;
  const next = Math.ceil((Date.now() + ((estado.partiesAhead || 0) + 1) * step) / step) * step;
  longer.textContent = "La espera se está alargando, perdone. Nueva estimación: hacia las " + Staff.clock(new Date(next)) + ".";
}

// The quoted time passes while nothing changes: look again each half minute.
setInterval(() => { if (last && last.status === "waiting") overdue(last); }, 30000);
Staff.settings.then(a => {
  if (a && a.nombreRestaurante) {
    document.getElementById("restaurant").textContent = a.nombreRestaurante;
    document.title = a.nombreRestaurante + " · su sitio en la lista de espera";
  }
  if (last) show(last);
});

const dialog = document.getElementById("confirm");
document.getElementById("leave").addEventListener("click", () => dialog.showModal());
document.getElementById("confirm-no").addEventListener("click", () => dialog.close());
document.getElementById("confirm-yes").addEventListener("click", async () => {
  dialog.close();
  const error = document.getElementById("error");
  error.textContent = "";
  try {
    const response = await fetch(base, { method: "DELETE" });
    if (response.status !== 204 && response.status !== 404) throw new Error("status " + response.status);
    const estado = await fetch(base + "/estado", { cache: "no-store" });
    if (estado.ok) show(await estado.json());
  } catch (e) {
    error.textContent = "No se pudo avisar: compruebe la conexión e inténtelo otra vez.";
  }
});

live = Staff.live({ stream: base + "/eventos", events: { estado: show }, poll: base + "/estado", ms: 5000, render: show });
