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

function show(estado) {
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
  }
  document.getElementById("leave").hidden = !(estado.status === "waiting" || estado.status === "ready");
  document.getElementById("updated").textContent = "Actualizado " + Staff.clock(new Date(), true);
  // Off the list for good: nothing more will change.
  if ((estado.status === "seated" || estado.status === "left") && live) { live.stop(); live = null; }
}

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
