// Shared plumbing of the staff pages and the wall display: log in (the token
// is kept in sessionStorage, so it ends with the tab), call the API with it,
// follow a Server-Sent Events stream (falling back to polling with
// If-None-Match while it fails), and show a notice while the server cannot be
// reached. Text goes in with textContent, never as HTML.
"use strict";
const Staff = (() => {
  const KEY = "comanda.token";
  let onLoggedOut = () => {};

  const token = () => sessionStorage.getItem(KEY);

  function pad(n) { return String(n).padStart(2, "0"); }

  // The restaurant's settings (GET /ajustes): its time zone, so every page
  // shows the restaurant's hour whatever the device's zone is, and its name.
  let zone = null, minutes = null, secondsFormat = null;
  const settings = fetch("/ajustes", { cache: "no-store" }).then(r => r.ok ? r.json() : null).catch(() => null).then(a => {
    if (a && a.zonaHoraria) {
      try {
        const options = { timeZone: a.zonaHoraria, hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
        minutes = new Intl.DateTimeFormat("es-ES", options);
        secondsFormat = new Intl.DateTimeFormat("es-ES", Object.assign({ second: "2-digit" }, options));
        zone = a.zonaHoraria;
      } catch (e) { /* an unknown zone: the device's own clock */ }
    }
    document.dispatchEvent(new CustomEvent("comanda:ajustes", { detail: a }));
    return a;
  });

  /** 24-hour `HH:MM` (or `HH:MM:SS`) in the restaurant's zone (the device's until the server has said it). */
  function clock(date, seconds) {
    if (zone) return (seconds ? secondsFormat : minutes).format(date);
    const hm = pad(date.getHours()) + ":" + pad(date.getMinutes());
    return seconds ? hm + ":" + pad(date.getSeconds()) : hm;
  }

  /** Shows or hides the "no connection" notice. */
  function offline(on) {
    const notice = document.getElementById("notice");
    if (notice) notice.hidden = !on;
  }

  /** A JSON request with the token (and `extra` headers). Throws {status, error} on an error answer; 401 logs out. */
  async function api(method, path, body, extra) {
    const headers = Object.assign({ "Authorization": "Bearer " + token() }, extra || {});
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
    if (!response.ok) {
      const error = (data && data.error) || { message: "Error " + response.status };
      if (error.code === "base_de_datos_no_disponible") error.message = "El servidor no puede guardar datos ahora: no se ha cambiado nada. Avise al encargado.";
      throw { status: response.status, error };
    }
    return data;
  }

  /** Polls `path` every `ms` with If-None-Match; calls `render(data)` on new data and on each tick. */
  function poll(path, ms, render) {
    let etag = null, last = null, timer = null, stopped = false;
    async function tick() {
      if (stopped) return;
      try {
        const headers = token() ? { "Authorization": "Bearer " + token() } : {};
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

  /**
   * Follows a stream: `events` maps event names to handlers of their JSON
   * data. While the stream is down, polls `poll` every `ms` with
   * If-None-Match and hands each answer to `render` (the notice shows while
   * that fails too). A public stream reconnects by itself (with
   * Last-Event-ID); one that needs a login (`ticket: true`) asks for a new
   * one-use ticket each time, since a session token never goes into a URL.
   * `also`: more `{poll, render}` pairs polled beside the first while the
   * stream is down (a stream that carries more than one list).
   */
  function live({ stream, ticket, events, poll: pollPath, ms, render, also = [] }) {
    let source = null, pollers = null, retry = null, stopped = false;
    function fallBack() {
      if (!pollers && !stopped) pollers = [{ poll: pollPath, render }, ...also].map(p => poll(p.poll, ms, p.render));
    }
    function streaming() {
      offline(false);
      if (pollers) { pollers.forEach(p => p.stop()); pollers = null; }
    }
    async function connect() {
      retry = null;
      if (stopped) return;
      let url = stream;
      if (ticket) {
        try {
          const t = await api("POST", "/sesiones/actual/tickets");
          url += "?ticket=" + encodeURIComponent(t.ticket);
        } catch (e) {
          fallBack();
          if (e.status !== 401 && !stopped) retry = setTimeout(connect, 3000);
          return;
        }
      }
      if (stopped) return;
      source = new EventSource(url);
      source.onopen = streaming;
      for (const [name, handler] of Object.entries(events)) {
        source.addEventListener(name, (e) => { streaming(); handler(JSON.parse(e.data)); });
      }
      source.onerror = () => {
        fallBack();
        // The browser would reconnect with the same ticket, already used: start over instead.
        if (ticket || source.readyState === EventSource.CLOSED) {
          source.close();
          source = null;
          if (!stopped && !retry) retry = setTimeout(connect, 3000);
        }
      };
    }
    connect();
    return {
      /** Fetches the whole state now (after this page changed something, in case the stream is slow). */
      now() { if (pollers) pollers.forEach(p => p.now()); },
      stop() {
        stopped = true;
        if (source) source.close();
        if (pollers) pollers.forEach(p => p.stop());
        clearTimeout(retry);
      },
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
    // A one-time password the manager handed over: the server asks for the
    // person's own (403 cambiar_password), typed twice, before it logs in.
    let nueva = null;
    function askNewPassword() {
      if (nueva) return;
      nueva = document.createElement("div");
      nueva.className = "nueva-password";
      const hint = el("p", "hint", "Es su primera entrada con la contraseña que le dieron: elija ahora la suya (8 caracteres o más).");
      const one = document.createElement("input"), two = document.createElement("input");
      for (const [input, name, label] of [[one, "nueva", "Contraseña nueva"], [two, "repetida", "Repita la contraseña nueva"]]) {
        input.type = "password"; input.name = name; input.autocomplete = "new-password"; input.required = true; input.minLength = 8;
        input.placeholder = label; input.setAttribute("aria-label", label);
      }
      nueva.append(hint, one, two);
      form.querySelector("button[type=submit]").before(nueva);
      one.focus();
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      message.textContent = "";
      const data = new FormData(form);
      const body = { login: data.get("login"), password: data.get("password") };
      if (nueva) {
        if ((data.get("nueva") || "").length < 8) { message.textContent = "La contraseña nueva necesita 8 caracteres o más."; return; }
        if (data.get("nueva") !== data.get("repetida")) { message.textContent = "Las dos contraseñas nuevas no coinciden."; return; }
        body.nueva = data.get("nueva");
      }
      try {
        const response = await fetch("/sesiones", { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body) });
        const answer = await response.json();
        if (!response.ok) {
          const code = answer && answer.error && answer.error.code;
          if (response.status === 403 && code === "cambiar_password") { askNewPassword(); return; }
          if (response.status === 403 && code === "codigo_caducado") {
            message.textContent = "Ese código ha caducado (vale una semana): pida uno nuevo al encargado.";
            return;
          }
          // Only a 401 means a wrong password: a server that cannot keep data says so.
          message.textContent = response.status === 401 ? "Usuario o contraseña incorrectos."
            : response.status === 422 && nueva ? "La contraseña nueva tiene que ser distinta de la que le dieron y tener 8 caracteres o más."
            : response.status === 429 ? "Demasiados intentos: espere unos minutos."
            : response.status === 503 ? "El servidor no puede guardar datos ahora: avise al encargado y vuelva a intentarlo en un momento."
            : "No se pudo entrar (error " + response.status + "): vuelva a intentarlo.";
          return;
        }
        sessionStorage.setItem(KEY, answer.token);
        form.reset();
        if (nueva) { nueva.remove(); nueva = null; }
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

  /** An image the API serves to a logged-in user (an invoice's QR code), as an object URL for an <img>. */
  async function image(path) {
    let response;
    try { response = await fetch(path, { headers: { "Authorization": "Bearer " + token() } }); }
    catch (e) { offline(true); throw { status: 0, error: { message: "Sin conexión con el servidor" } }; }
    if (!response.ok) throw { status: response.status, error: { message: "Error " + response.status } };
    return URL.createObjectURL(await response.blob());
  }

  /** Euros typed by a person (`33,33`, `20`, `1.5`) as cents; null if it is not an amount with at most two decimals. */
  function cents(text) {
    const t = String(text).trim().replace(",", ".");
    if (!/^\d+(\.\d{1,2})?$/.test(t)) return null;
    return Math.round(Number(t) * 100);
  }

  /** An amount in euros (a number with at most two decimals) the Spanish way: `1.234,50 €`. */
  function money(euros) {
    return euros.toLocaleString("es-ES", { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true }) + " €";
  }

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

  /**
   * The notice of the printers that have jobs waiting and cannot print them
   * (no paper, unreachable), in `element`, from the body of GET /impresoras.
   */
  function printerNotice(element, list) {
    const stuck = (list || []).filter(p => p.estado !== "lista" && p.pendientes > 0);
    element.hidden = stuck.length === 0;
    element.textContent = stuck.map(p => "Impresora " + p.nombre + (p.estado === "sin_papel" ? " sin papel" : " sin conexión") + ": "
      + p.pendientes + (p.pendientes === 1 ? " ticket esperando" : " tickets esperando")).join(" · ");
  }

  /** A short two-tone chime through Web Audio (no file to load), for what needs someone now. */
  let audio = null;
  function chime() {
    try {
      audio = audio || new AudioContext();
      [0, 0.18].forEach((delay, i) => {
        const osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = i ? 1320 : 880;
        gain.gain.setValueAtTime(0.25, audio.currentTime + delay);
        gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + delay + 0.16);
        osc.connect(gain).connect(audio.destination);
        osc.start(audio.currentTime + delay);
        osc.stop(audio.currentTime + delay + 0.17);
      });
    } catch (e) { /* no audio on this device */ }
  }

  return { api, poll, live, login, logout, clock, el, button, offline, money, image, cents, settings, printerNotice, chime };
})();
