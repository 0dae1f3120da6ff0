// The wall display: follows GET /reservations/eventos (the whole list on
// connect and after every change, pushed), and while that stream is down
// polls GET /reservations every 2 s with If-None-Match; shows ready parties on
// top in green and the waiting ones below, and keeps the last data with a
// notice while the server cannot be reached. Names are always inserted as
// text, never as HTML.
"use strict";
const POLL_MS = 2000;
let last = null;


function minutesSince(iso, nowMs) {
  return Math.max(0, Math.floor((nowMs - Date.parse(iso)) / 60000));
}

function partyItem(party, nowMs) {
  const li = document.createElement("li");
  li.dataset.id = String(party.id);
  if (party.isReady) li.classList.add("is-ready");
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = party.name;
  const meta = document.createElement("span");
  meta.className = "meta";
  const people = party.size === 1 ? "1 persona" : party.size + " personas";
  meta.textContent = party.isReady ? people + " · ¡su mesa está lista!"
    : people + " · " + minutesSince(party.arrivalTime, nowMs) + " min · previsto " + party.quotedMinutes + " min";
  li.append(name, meta);
  return li;
}

function fill(list, parties, nowMs, emptyText) {
  list.replaceChildren(...parties.map(p => partyItem(p, nowMs)));
  if (parties.length === 0) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = emptyText;
    list.replaceChildren(li);
  }
}

function render(data) {
  const nowMs = Date.now();
  fill(document.getElementById("ready"), data.reservations.filter(p => p.isReady), nowMs, "Ninguna mesa lista todavía");
  fill(document.getElementById("waiting"), data.reservations.filter(p => !p.isReady), nowMs, "Nadie esperando");
  document.getElementById("average").textContent = String(data.averageWaitMinutes);
  document.getElementById("updated").textContent = "Actualizado " + Staff.clock(new Date(), true);
}

function show(data) {
  last = data;
  render(data);
}

// Minutes since arrival move on even when nothing changes.
setInterval(() => { if (last) render(last); }, 15000);

Staff.live({ stream: "/reservations/eventos", events: { reservations: show },
             poll: "/reservations", ms: POLL_MS, render: show });
