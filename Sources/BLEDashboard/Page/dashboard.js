// The SwiftBLE dashboard's page (docs/dashboard.md). It opens a WebSocket to /ws, takes the
// server's hello (the scenario, its map's placement, what happened so far) and then one
// update per server tick; the messages that arrive between two animation frames are drawn
// once, in that frame. When the socket closes it reconnects, waiting longer each time (up to
// 5 s), and starts afresh when the server's session has changed. The office view asks the
// back end's API under /api/ every few seconds. Everything is drawn as SVG here; nothing is
// loaded from anywhere but this server.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const RSSI_WINDOW = 60;          // seconds of RSSI the plot shows
const RSSI_RANGE = [-105, -35];  // dBm on the plot's axis
// The log keeps as many events as the server replays to a new page (DashboardFeed.recentLimit), so
// the gateways' frequent store lines cannot push a rare entry (a bus entering a stop) out of it.
const EVENT_LIMIT = 2000;
// The plot draws the series heard most recently, at most this many: a crowd of a thousand
// beacons would otherwise redraw thousands of lines each frame. --device picks which to plot.
const RSSI_SERIES_LIMIT = 40;
const COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

const state = {
  session: null, geometry: null, devices: new Map(), positions: {}, markers: new Map(), series: new Map(), time: 0,
  pending: [], drawScheduled: false, names: {}, office: false, retry: 0, officeTimer: null, historyOf: null,
};

function element(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// --- The connection --------------------------------------------------------------------

function connect() {
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  socket.onopen = () => { state.retry = 0; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    setStatus("reconnecting", "reconnecting…");
    const delay = Math.min(5000, 250 * 2 ** state.retry++);
    setTimeout(connect, delay);
  };
  // An error is followed by close, which reconnects.
  socket.onerror = () => {};
}

function setStatus(kind, text) {
  const status = document.getElementById("status");
  status.dataset.state = kind;
  status.textContent = text;
}

function receive(message) {
  if (message.type === "hello") {
    hello(message);
  } else if (message.type === "update") {
    state.pending.push(message);
    if (!state.drawScheduled) {
      state.drawScheduled = true;
      requestAnimationFrame(drawPending);
    }
  }
}

function hello(message) {
  const fresh = message.session !== state.session;
  state.session = message.session;
  document.body.dataset.session = message.session;
  setStatus("connected", "connected");
  document.getElementById("scenario").textContent = message.scenario ? "— " + message.scenario : "— store only";
  if (fresh) {
    state.series.clear();
    state.pending = [];
    document.getElementById("events").replaceChildren();
    state.devices = new Map(message.devices.map((device) => [device.name, device]));
    state.geometry = message.map;
    state.positions = {};
    loadMap(message.positions);
  } else {
    Object.assign(state.positions, message.positions);
    drawMarkers(Object.keys(message.positions));
  }
  Object.assign(state.names, message.names);
  state.office = message.office;
  document.getElementById("office-note").textContent = message.office ? "Asked of the back end over the store every 2 s; click a row for its history." : "No store attached.";
  if (message.office && !state.officeTimer) {
    // The next round 2 s after one ends: with a thousand identities a round takes a while, and
    // rounds must not pile up.
    const round = async () => { await askOffice(); state.officeTimer = setTimeout(round, 2000); };
    state.officeTimer = setTimeout(round, 0);
  }
  if (fresh) {
    addEvents(message.events);
    addRSSI(message.rssi);
  }
  state.time = message.time;
  drawClock();
  drawRSSI();
}

function drawPending() {
  state.drawScheduled = false;
  const updates = state.pending;
  state.pending = [];
  const moved = new Set();
  for (const update of updates) {
    Object.assign(state.positions, update.positions);
    for (const name of Object.keys(update.positions)) moved.add(name);
    Object.assign(state.names, update.names);
    addRSSI(update.rssi);
    addEvents(update.events);
    state.time = update.time;
    document.getElementById("stored").textContent = update.stored + " sightings stored";
  }
  drawMarkers(moved);
  drawRSSI();
  drawClock();
  document.body.dataset.updates = +(document.body.dataset.updates || 0) + updates.length;
  // How long the newest update took from the server's tick to the screen (same machine, same clock).
  if (updates.length > 0) {
    const latency = Date.now() - updates[updates.length - 1].sentAt;
    document.body.dataset.latency = latency;
    document.body.dataset.maxLatency = Math.max(latency, +(document.body.dataset.maxLatency || 0));
  }
}

function drawClock() {
  document.getElementById("clock").textContent = "t = " + state.time.toFixed(1) + " s";
}

// --- The map: the server's plan (map.svg) with a layer of live markers ------------------

function loadMap(positions) {
  const map = document.getElementById("map");
  map.replaceChildren();
  if (!state.geometry) return;
  fetch("map.svg").then((response) => response.text()).then((text) => {
    const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    const live = element("g", { id: "live" });
    svg.appendChild(live);
    map.replaceChildren(document.importNode(svg, true));
    state.markers.clear();
    Object.assign(state.positions, positions);
    drawMarkers(Object.keys(state.positions));
  });
}

function pixel(x, y) {
  const g = state.geometry;
  return [g.left + (x - g.originX) * g.scale, g.top + (g.topY - y) * g.scale];
}

// Moves the markers of `names` (the devices that moved) to where they are now, making those
// not drawn yet; the others stay where they are.
function drawMarkers(names) {
  const live = document.getElementById("live");
  if (!live || !state.geometry) return;
  for (const name of names) {
    const position = state.positions[name];
    const device = state.devices.get(name);
    if (!position || !device || device.kind === "gateway") continue;  // gateways stand still, drawn by the plan
    let marker = state.markers.get(name);
    if (!marker) {
      marker = element("g", { "data-name": name, class: "marker" }, live);
      state.markers.set(name, marker);
      element("circle", { r: device.kind === "vehicle" ? 7 : 4, class: "marker-" + device.kind, stroke: "#000" }, marker);
      if (device.kind !== "beacon") element("text", { x: 8, y: -8, class: "marker-label" }, marker).textContent = name;
    }
    const [px, py] = pixel(position[0], position[1]);
    marker.setAttribute("transform", `translate(${px.toFixed(1)},${py.toFixed(1)})`);
    marker.dataset.x = px.toFixed(1);
    marker.dataset.y = py.toFixed(1);
  }
}

// --- RSSI: one polyline per beacon and gateway -------------------------------------------

function addRSSI(points) {
  for (const point of points) {
    const key = point.beacon + " → " + point.receiver;
    if (!state.series.has(key)) state.series.set(key, { colour: COLOURS[state.series.size % COLOURS.length], points: [] });
    state.series.get(key).points.push([point.time, point.rssi]);
  }
}

function drawRSSI() {
  const plot = document.getElementById("rssi");
  const width = 640, height = 260, left = 44, right = 10, top = 10, bottom = 28;
  const end = Math.max(state.time, RSSI_WINDOW), start = end - RSSI_WINDOW;
  const x = (t) => left + (t - start) / RSSI_WINDOW * (width - left - right);
  const y = (dBm) => top + (RSSI_RANGE[1] - dBm) / (RSSI_RANGE[1] - RSSI_RANGE[0]) * (height - top - bottom);
  plot.replaceChildren();
  const axes = element("g", { stroke: "#999", "font-size": 10, fill: "#444" }, plot);
  for (let dBm = -100; dBm <= -40; dBm += 10) {
    element("line", { x1: left, x2: width - right, y1: y(dBm), y2: y(dBm), "stroke-dasharray": "2 3" }, axes);
    element("text", { x: 4, y: y(dBm) + 3, stroke: "none" }, axes).textContent = dBm + " dBm";
  }
  for (let t = Math.ceil(start / 10) * 10; t <= end; t += 10) {
    element("text", { x: x(t) - 8, y: height - 8, stroke: "none" }, axes).textContent = t + " s";
  }
  const legend = document.getElementById("rssi-legend");
  legend.replaceChildren();
  for (const [key, series] of state.series) {
    series.points = series.points.filter(([t]) => t >= start - 1);
    if (series.points.length === 0) state.series.delete(key);
  }
  const last = (series) => series.points[series.points.length - 1][0];
  const recent = new Set([...state.series].sort((a, b) => last(b[1]) - last(a[1])).slice(0, RSSI_SERIES_LIMIT).map(([key]) => key));
  plot.dataset.series = state.series.size;
  for (const [key, series] of state.series) {
    if (!recent.has(key)) continue;  // in first-heard order, so that the legend does not reshuffle
    const line = element("polyline", {
      fill: "none", stroke: series.colour, "stroke-width": 1.5, "data-series": key, "data-count": series.points.length,
      points: series.points.map(([t, dBm]) => x(t).toFixed(1) + "," + y(Math.max(RSSI_RANGE[0], Math.min(RSSI_RANGE[1], dBm))).toFixed(1)).join(" "),
    }, plot);
    element("title", {}, line).textContent = key;
    const item = document.createElement("li");
    item.innerHTML = `<span style="background:${series.colour}"></span>`;
    item.appendChild(document.createTextNode(key + " (" + series.points[series.points.length - 1][1] + " dBm)"));
    legend.appendChild(item);
  }
}

// --- The event log -----------------------------------------------------------------------

function addEvents(events) {
  const list = document.getElementById("events");
  for (const event of events) {
    const item = document.createElement("li");
    item.dataset.kind = event.kind;
    item.dataset.who = event.who;
    item.textContent = event.time.toFixed(1) + " s  " + event.text;
    list.insertBefore(item, list.firstChild);
  }
  while (list.children.length > EVENT_LIMIT) list.removeChild(list.lastChild);
}

// --- The office: the back end's answers over the store -------------------------------------

async function api(path) {
  const response = await fetch("api/" + path);
  if (!response.ok) throw new Error(path + ": " + response.status);
  return response.json();
}

async function askOffice() {
  try {
    const [{ locations }, dwell] = await Promise.all([api("locations"), api("dwell?assign=presence")]);
    const presence = {};
    for (const entry of dwell.dwell) {
      (presence[entry.identity] = presence[entry.identity] || []).push(entry.zone + " " + entry.seconds.toFixed(0) + " s");
    }
    const body = document.querySelector("#office tbody");
    body.replaceChildren();
    for (const where of locations) {
      const row = document.createElement("tr");
      row.dataset.identity = where.identity;
      row.dataset.zone = where.zone;
      for (const text of [where.identity, state.names[where.identity] || "", where.zone, where.gateway, where.rssi + " dBm",
                          new Date(where.last_seen / 1000).toISOString().slice(11, 19), (presence[where.identity] || []).join(", ")]) {
        row.appendChild(document.createElement("td")).textContent = text;
      }
      row.onclick = () => { state.historyOf = where.identity; askHistory(); };
      body.appendChild(row);
    }
    if (state.historyOf) await askHistory();
  } catch (error) {
    document.getElementById("office-note").textContent = "The back end did not answer: " + error.message;
  }
}

async function askHistory() {
  const identity = state.historyOf;
  document.getElementById("history-of").textContent = "of " + identity;
  const { sightings } = await api("identities/" + encodeURIComponent(identity) + "/history?limit=10000");
  const list = document.getElementById("history");
  list.replaceChildren();
  let last = null;
  // One line per change of zone, newest first.
  for (const sighting of sightings) {
    if (last && last.zone === sighting.zone) { last.until = sighting.time; continue; }
    last = { zone: sighting.zone, from: sighting.time, until: sighting.time };
    const item = document.createElement("li");
    item.textContent = sighting.zone;
    item.last = last;
    list.insertBefore(item, list.firstChild);
  }
  for (const item of list.children) {
    const clock = (time) => new Date(time / 1000).toISOString().slice(11, 19);
    item.textContent = item.last.zone + ": " + clock(item.last.from) + " – " + clock(item.last.until);
  }
}

connect();
