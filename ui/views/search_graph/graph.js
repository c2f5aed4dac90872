// The live search graph. One SVG for the life of the frame: each render message from
// Streamlit updates the nodes in place (colour, ring, label) and adds the new ones, so the
// graph never flashes or re-flows while a run goes. Positions come from Python
// (ui/graph_layout.py); this file only draws them and reports the clicked node's id.
// Written for FinSearch (same licence as the project); it loads nothing from the network.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const svg = document.getElementById("graph");
const edgeLayer = document.getElementById("edges");
const nodeLayer = document.getElementById("nodes");
const drawn = new Map();      // node id -> its <g>
let selected = null;
let lastHeight = -1;
// A click the server has not drawn back yet. A click made just as a finished turn leaves its
// polling fragment is sent as a rerun of that fragment, which Streamlit then skips (the
// fragment is gone), so nothing follows it; the next render then still carries the old
// selection, and the click is sent again, from the frame as the page now knows it.
let unanswered = null;        // {id, resends}
const MAX_RESENDS = 3;
// The graph shrinks to its column, but never below this scale (a phone would draw it at a
// third of its size, 6 px labels): a column narrower than that gets the outline layout
// instead (one node a row, indented by level), which fits any phone; only a column too
// narrow even for the outline scrolls sideways.
const MIN_SCALE = 0.75;
let lastGraph = null;         // the graph last sent: laid out again when the frame's width changes

// Streamlit's component protocol (the messages streamlit-component-lib sends), written out.
function send(type, data) {
  window.parent.postMessage(Object.assign({ isStreamlitMessage: true, type: type }, data), "*");
}

function make(name, attrs, parent) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) element.setAttribute(k, String(v));
  if (parent) parent.appendChild(element);
  return element;
}

function setLines(group, lines, x, y, lineHeight, room) {
  // Text goes in as text nodes, never as markup: labels come from questions and web pages.
  group.querySelectorAll("text").forEach((t) => t.remove());
  lines.forEach((line, i) => {
    const text = make("text", { x: x, y: y + i * lineHeight, class: i === 0 ? "first" : "" }, group);
    text.textContent = line;
    // A line wider than its room (a wide font, CJK) is squeezed to fit, never clipped.
    if (text.getComputedTextLength() > room) {
      text.setAttribute("textLength", room);
      text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  });
}

function choose(id) {
  selected = id;
  drawn.forEach((g, gid) => g.classList.toggle("selected", gid === selected));
  unanswered = { id: id, resends: 0 };
  send("streamlit:setComponentValue", { value: id, dataType: "json" });
}

function showEvidence() {
  // On a phone the evidence column is stacked below the graph and its legend, out of sight
  // of the node just tapped: bring it into view (the page beside a wide graph needs nothing).
  try {
    const frame = window.frameElement, row = frame && frame.closest('[data-testid="stHorizontalBlock"]');
    const panel = row && row.querySelectorAll(':scope > [data-testid="stColumn"]')[1];
    if (!panel) return;
    const stacked = panel.getBoundingClientRect().top >= frame.getBoundingClientRect().bottom - 1;
    const seen = panel.getBoundingClientRect().top < window.parent.innerHeight * 0.6;
    if (stacked && !seen) panel.scrollIntoView({ block: "start", behavior: "smooth" });
  } catch (error) { /* a frame the page does not share its origin with: nothing to scroll */ }
}

function answerClick(serverSelected) {
  if (unanswered === null) return;
  if (serverSelected === unanswered.id) {
    unanswered = null;
    setTimeout(showEvidence, 100);    // the evidence is drawn in the same rerun as this frame's update
    return;
  }
  if (unanswered.resends >= MAX_RESENDS) {
    unanswered = null;
    return;
  }
  unanswered.resends += 1;
  selected = unanswered.id;
  document.body.dataset.resends = String(Number(document.body.dataset.resends || 0) + 1);
  send("streamlit:setComponentValue", { value: unanswered.id, dataType: "json" });
}

function createNode(node) {
  const g = make("g", { "data-id": node.id }, nodeLayer);
  if (node.status === "question") {
    g.setAttribute("class", "root node");
    make("rect", { rx: 6, ry: 6 }, g);
  } else {
    make("circle", { class: "halo" }, g);
    make("circle", { class: "dot" }, g);
  }
  make("title", {}, g);
  // A button for the keyboard too: Tab to a node, Enter or Space opens its evidence.
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.addEventListener("click", () => choose(node.id));
  g.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(node.id); }
  });
  drawn.set(node.id, g);
  return g;
}

function updateNode(g, node, graph) {
  const colours = graph.colours;
  g.dataset.status = node.status;
  g.dataset.x = node.x;
  g.dataset.y = node.y;
  g.setAttribute("transform", "translate(" + node.x + "," + node.y + ")");
  g.querySelector("title").textContent = node.hint;
  g.setAttribute("aria-label", node.lines.join(" ") + (node.status === "question" ? "" : " (" + node.status + ")"));
  if (node.status === "question") {
    const w = graph.root_width, h = node.lines.length * 16 + 14;
    const rect = g.querySelector("rect");
    rect.setAttribute("x", -w / 2); rect.setAttribute("y", -h / 2);
    rect.setAttribute("width", w); rect.setAttribute("height", h);
    setLines(g, node.lines, -w / 2 + 8, -h / 2 + 19, 16, w - 16);
    return;
  }
  g.setAttribute("class", ["node", node.status, node.rewritten ? "rewritten" : "", node.follow_up ? "follow-up" : "",
                           node.id === selected ? "selected" : ""].join(" ").trim());
  const r = graph.radius, fill = colours[node.status] || colours.pending;
  const dot = g.querySelector("circle.dot");
  dot.setAttribute("r", r);
  dot.setAttribute("fill", fill);
  dot.setAttribute("stroke", node.rewritten ? graph.rewritten_border : "#5b6270");
  g.querySelector("circle.halo").setAttribute("r", r + 5);
  setLines(g, node.lines, r + 8, -3, 15, graph.label_width - r - 8);
}

function downPath(graph, a, b) {
  // The outline's edge: down a trunk left of the parent (clear of its level's other dots),
  // then right into the child's dot.
  const root = a.status === "question";
  const x1 = root ? a.x - graph.root_width / 2 + 12 : a.x - graph.radius - 6;
  const y1 = root ? a.y + (a.lines.length * 16 + 14) / 2 : a.y + graph.radius * 0.6;
  const x2 = b.x - graph.radius - 2, y2 = b.y, bend = Math.min(8, (x2 - x1) / 2);
  return "M" + x1 + "," + y1 + " L" + x1 + "," + (y2 - bend) + " Q" + x1 + "," + y2 + " " + (x1 + bend) + "," + y2 +
         " L" + x2 + "," + y2;
}

function drawEdges(graph, byId) {
  edgeLayer.replaceChildren();     // cheap: the paths follow from fixed positions
  for (const [from, to] of graph.edges) {
    const a = byId.get(from), b = byId.get(to);
    if (!a || !b) continue;
    if (graph.flow === "down") {
      make("path", { d: downPath(graph, a, b), class: b.follow_up ? "edge follow-up" : "edge",
                     "marker-end": "url(#arrow)" }, edgeLayer);
      continue;
    }
    // An edge leaves from beyond its parent's label, so it never crosses the words.
    const parent = drawn.get(from), box = parent ? parent.getBBox() : { x: 0, width: 0 };
    const x1 = a.status === "question" ? a.x + graph.root_width / 2 : a.x + box.x + box.width + 4;
    const x2 = b.x - graph.radius - 2, mid = (x1 + x2) / 2;
    make("path", { d: "M" + x1 + "," + a.y + " C" + mid + "," + a.y + " " + mid + "," + b.y + " " + x2 + "," + b.y,
                   class: b.follow_up ? "edge follow-up" : "edge", "marker-end": "url(#arrow)" }, edgeLayer);
  }
}

function fitFrame() {
  // Room for the sideways scrollbar too, when the graph is wider than its column.
  const scrollbar = Math.max(0, window.innerHeight - document.documentElement.clientHeight);
  const height = Math.ceil(svg.getBoundingClientRect().height) + 4 + scrollbar;
  if (height !== lastHeight) {
    lastHeight = height;
    send("streamlit:setFrameHeight", { height: height });
  }
}

function fitted(graph) {
  // The outline when the graph, shrunk to its smallest scale, is still wider than the column.
  const narrow = graph.outline && window.innerWidth < graph.width * MIN_SCALE;
  return narrow ? Object.assign({}, graph, graph.outline) : graph;
}

function render(args, theme) {
  if (theme && theme.textColor) document.body.style.color = theme.textColor;
  if (args.selected !== undefined && args.selected !== null) selected = args.selected;
  answerClick(args.selected);
  lastGraph = args.graph;
  draw(args.graph);
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
}

function draw(sent) {
  const graph = fitted(sent);
  document.body.dataset.flow = graph.flow || "across";
  svg.setAttribute("viewBox", "0 0 " + graph.width + " " + graph.height);
  svg.setAttribute("width", graph.width);
  svg.setAttribute("height", graph.height);
  svg.style.minWidth = Math.round(graph.width * MIN_SCALE) + "px";
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  for (const [id, g] of drawn) if (!byId.has(id)) { g.remove(); drawn.delete(id); }
  for (const node of graph.nodes) updateNode(drawn.get(node.id) || createNode(node), node, graph);
  drawEdges(graph, byId);
  // A draft (the rules' plan while a model plans) is drawn faded and dashed until the real plan comes.
  document.body.classList.toggle("draft", Boolean(graph.draft));
  document.body.dataset.draft = String(Boolean(graph.draft));
  document.body.dataset.nodes = String(graph.nodes.length);
  fitFrame();
}

window.addEventListener("message", (event) => {
  if (event.data && event.data.type === "streamlit:render") render(event.data.args, event.data.theme);
});
new ResizeObserver(fitFrame).observe(document.body);   // the column's width sets the scale
window.addEventListener("resize", () => {               // a sideways scrollbar takes height,
  if (lastGraph !== null && (fitted(lastGraph).flow || "across") !== document.body.dataset.flow) {
    draw(lastGraph);                                   // and a new width may call for the other layout
  } else {
    fitFrame();
  }
});
send("streamlit:componentReady", { apiVersion: 1 });
