// The wall display: follows GET /reservations/eventos (the whole list on
// connect and after every change, pushed), and while that stream is down
// polls GET /reservations every 2 s with If-None-Match; shows ready parties on
// top in green and the waiting ones below in two columns ("y N más" for any
// that do not fit), the wait the quotes promise, and keeps the last data with a
// notice while the server cannot be reached. Names are always inserted as
// text, never as HTML.
"use strict";
const POLL_MS = 2000;
let last = null;


function partyItem(party) {
  const li = document.createElement("li");
  li.dataset.id = String(party.id);
  if (party.isReady) li.classList.add("is-ready");
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = party.name;
  const meta = document.createElement("span");
  meta.className = "meta";
  const people = party.size === 1 ? "1 persona" : party.size + " personas";
  // For the guests: their party and the wait they were promised (the minutes since arrival are the host's).
  meta.textContent = party.isReady ? people + " · ¡su mesa está lista!" : people + " · previsto " + party.quotedMinutes + " min";
  li.append(name, meta);
  return li;
}

function fill(list, parties, emptyText) {
  list.replaceChildren(...parties.map(partyItem));
  if (parties.length === 0) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = emptyText;
    list.replaceChildren(li);
  }
}

/** Everyone fits on the wall: the waiting list flows into two columns; what still
 * does not fit is said as "y N más" (the last line), never cut off unseen. */
function fitWaiting(list) {
  const items = [...list.querySelectorAll("li:not(.more)")];
  items.forEach(li => { li.hidden = false; });
  list.querySelector(".more")?.remove();
  const bottom = () => document.documentElement.clientHeight - document.getElementById("updated").offsetHeight;
  const overflowing = () => list.getBoundingClientRect().bottom > bottom();
  if (!overflowing()) return;
  const more = document.createElement("li");
  more.className = "more";
  list.append(more);
  let hidden = 0;
  for (let i = items.length - 1; i > 0 && overflowing(); i--) {
    items[i].hidden = true;
    hidden++;
    more.textContent = "y " + hidden + " más esperando";
  }
}

/** What a guest can trust: the quotes given to those waiting now (not the time they have waited). */
function estimate(waiting) {
  if (waiting.length === 0) return null;
  const mean = waiting.reduce((sum, p) => sum + p.quotedMinutes, 0) / waiting.length;
  return Math.max(5, Math.round(mean / 5) * 5);
}

function render(data) {
  const waiting = data.reservations.filter(p => !p.isReady);
  fill(document.getElementById("ready"), data.reservations.filter(p => p.isReady), "Ninguna mesa lista todavía");
  fill(document.getElementById("waiting"), waiting, "Nadie esperando");
  const minutes = estimate(waiting);
  document.getElementById("average").textContent = minutes === null ? "Sin espera" : "Espera estimada " + minutes + " min";
  document.getElementById("updated").textContent = "Actualizado " + Staff.clock(new Date(), true);
  fitWaiting(document.getElementById("waiting"));
}

function show(data) {
  last = data;
  render(data);
}

// Fitted again now and then (and when the screen is resized).
setInterval(() => { if (last) render(last); }, 15000);
window.addEventListener("resize", () => { if (last) render(last); });

Staff.live({ stream: "/reservations/eventos", events: { reservations: show },
             poll: "/reservations", ms: POLL_MS, render: show });
