// Shared plumbing of the staff pages (kitchen board, later the host stand and
// the menu manager): log in (the token is kept in sessionStorage, so it ends
// with the tab), call the API with it, poll with If-None-Match, and show a
// notice while the server cannot be reached. Text goes in with textContent,
// never as HTML.
"use strict";
const Staff = (() => {
  const KEY = "comanda.token";
  let onLoggedOut = () => {};

  const token = () => sessionStorage.getItem(KEY);

  function pad(n) { return String(n).padStart(2, "0"); }
  /** 24-hour `HH:MM` (or `HH:MM:SS`) in the tablet's own clock, whatever the browser's locale. */
  function clock(date, seconds) {
    const hm = pad(date.getHours()) + ":" + pad(date.getMinutes());
    return seconds ? hm + ":" + pad(date.getSeconds()) : hm;
  }

  /** Shows or hides the "no connection" notice. */
  function offline(on) {
    const notice = document.getElementById("notice");
    if (notice) notice.hidden = !on;
  }

  /** A JSON request with the token. Throws {status, error} on an error answer; 401 logs out. */
  async function api(method, path, body) {
    const headers = { "Authorization": "Bearer " + token() };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
    } catch (e) {
      offline(true);
      throw { status: 0, error: { message: "Sin conexión con el servidor" } };
    }
    offline(false);
    if (response.status === 401) { logout(); throw { status: 401, error: { message: "La sesión ha caducado" } }; }
    const type = response.headers.get("Content-Type") || "";
    const data = type.startsWith("application/json") ? await response.json() : await response.text();
    if (!response.ok) throw { status: response.status, error: (data && data.error) || { message: "Error " + response.status } };
    return data;
  }

  /** Polls `path` every `ms` with If-None-Match; calls `render(data)` on new data and on each tick. */
  function poll(path, ms, render) {
    let etag = null, last = null, timer = null, stopped = false;
    async function tick() {
      if (stopped) return;
      try {
        const headers = { "Authorization": "Bearer " + token() };
        if (etag) headers["If-None-Match"] = etag;
        const response = await fetch(path, { headers, cache: "no-store" });
        if (response.status === 401) { logout(); return; }
        if (response.status === 200) { etag = response.headers.get("ETag"); last = await response.json(); }
        else if (response.status !== 304) throw new Error("status " + response.status);
        offline(false);
      } catch (e) {
        offline(true);
      }
      if (last !== null) render(last);
      timer = setTimeout(tick, ms);
    }
    tick();
    return {
      /** Polls again now (after this page changed something). */
      now() { clearTimeout(timer); tick(); },
      stop() { stopped = true; clearTimeout(timer); },
    };
  }

  /** Wires the login form; `start(usuario)` runs once logged in with one of `roles`. */
  function login(roles, start, stop) {
    const form = document.getElementById("login");
    const message = document.getElementById("login-error");
    onLoggedOut = () => { stop(); form.hidden = false; document.body.classList.remove("logged-in"); };
    async function begin() {
      try {
        const me = await api("GET", "/usuarios/yo");
        if (!roles.includes(me.rol)) { message.textContent = "Este usuario no tiene acceso a esta pantalla."; logout(); return; }
        form.hidden = true;
        document.body.classList.add("logged-in");
        start(me);
      } catch (e) {
        if (e.status !== 401) message.textContent = e.error.message;
      }
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      message.textContent = "";
      const data = new FormData(form);
      try {
        const response = await fetch("/sesiones", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ login: data.get("login"), password: data.get("password") }) });
        const body = await response.json();
        if (!response.ok) { message.textContent = response.status === 429 ? "Demasiados intentos: espere unos minutos." : "Usuario o contraseña incorrectos."; return; }
        sessionStorage.setItem(KEY, body.token);
        form.reset();
        begin();
      } catch (e) {
        message.textContent = "Sin conexión con el servidor.";
      }
    });
    const out = document.getElementById("logout");
    if (out) out.addEventListener("click", async () => { try { await api("DELETE", "/sesiones/actual"); } catch (e) {} logout(); });
    if (token()) begin(); else onLoggedOut();
  }

  function logout() { sessionStorage.removeItem(KEY); onLoggedOut(); }

  /** An element with a class and text (never HTML). */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** A button with a class and text that runs `action` when pressed. */
  function button(text, className, action) {
    const b = el("button", className, text);
    b.type = "button";
    b.addEventListener("click", action);
    return b;
  }

  return { api, poll, login, logout, clock, el, button, offline };
})();
