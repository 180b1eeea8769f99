"use strict";
(() => {
  const started = performance.now();
  const data = JSON.parse(document.getElementById("racecheck-data").textContent);
  const colours = {
    op: "#8a96a3", window: "#4c8bf5", linearized: "#2e9e5b", unplaceable: "#d93025",
    deadEnd: "#f29900", failed: "#c5cbd1", match: "#fbbc04", text: "#1f2328", band: "#e8f0fe",
    fault: "rgba(217, 48, 37, 0.12)", faultText: "#a50e0e",
  };
  const fill = [
    colours.op, colours.window, colours.linearized, colours.deadEnd, colours.unplaceable,
  ];
  const KIND = { op: 0, window: 1, linearized: 2, deadEnd: 3, unplaceable: 4 };
  const ROW = 20, BAR = 14, LANE_GAP = 8, AXIS = 24, LEFT = 132, RIGHT = 12, MAX_HEIGHT = 560;

  // A short number for axis ticks: 1200 → 1.2k.
  function short(value) {
    const size = Math.abs(value);
    const units = [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];
    for (const [scale, unit] of units) {
      if (size >= scale) return +(value / scale).toPrecision(4) + unit;
    }
    return String(+value.toPrecision(6));
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  class TimelineView {
    constructor(figure, t) {
      this.figure = figure;
      this.t = t;
      const n = t.lane.length;
      this.n = n;
      this.call = new Float64Array(n);
      this.ret = new Float64Array(n);
      let end = 0;
      for (let i = 0; i < n; i++) {
        this.call[i] = t.call[i];
        this.ret[i] = t.ret[i] === null ? Infinity : t.ret[i];
        end = Math.max(end, this.call[i], isFinite(this.ret[i]) ? this.ret[i] : 0);
      }
      this.faults = t.faults || [];
      for (const fault of this.faults) end = Math.max(end, fault.end === null ? fault.start : fault.end);
      this.end = Math.max(end, 1);
      this.kind = new Uint8Array(n);
      this.order = new Int32Array(n);
      this.inWindow = new Uint8Array(n);
      this.candidate = new Map();
      const marks = t.marks;
      if (marks) {
        if (marks.window) {
          let first = Infinity, last = -Infinity;
          for (const i of marks.window) {
            this.kind[i] = KIND.window;
            this.inWindow[i] = 1;
            first = Math.min(first, this.call[i]);
            last = Math.max(last, isFinite(this.ret[i]) ? this.ret[i] : this.call[i]);
          }
          if (marks.window.length) this.band = [first, last];
        }
        marks.order.forEach((i, position) => {
          this.kind[i] = KIND.linearized;
          this.order[i] = position + 1;
        });
        for (const c of marks.candidates) {
          this.kind[c.operation] = c.fits ? KIND.deadEnd : KIND.unplaceable;
          this.candidate.set(c.operation, c);
        }
      }
      this.layOut();
      this.build();
      this.fit();
      const drawStarted = performance.now();
      this.draw();
      figure.setAttribute("data-drawn", String(n));
      figure.setAttribute("data-draw-ms", (performance.now() - drawStarted).toFixed(1));
    }

    // Rows: each lane has rowsPerLane rows; each row lists its operations in call order.
    layOut() {
      const t = this.t;
      this.laneFirstRow = [];
      let rows = 0;
      for (const count of t.rowsPerLane) {
        this.laneFirstRow.push(rows);
        rows += count;
      }
      this.rowCount = rows;
      this.rowTop = new Float64Array(rows);
      this.rowLane = new Int32Array(rows);
      let y = 0;
      t.rowsPerLane.forEach((count, lane) => {
        for (let r = 0; r < count; r++) {
          this.rowTop[this.laneFirstRow[lane] + r] = y;
          this.rowLane[this.laneFirstRow[lane] + r] = lane;
          y += ROW;
        }
        y += LANE_GAP;
      });
      this.contentHeight = y;
      const sizes = new Int32Array(rows);
      this.rowOf = new Int32Array(this.n);
      for (let i = 0; i < this.n; i++) {
        this.rowOf[i] = this.laneFirstRow[t.lane[i]] + t.row[i];
        sizes[this.rowOf[i]]++;
      }
      this.rowOps = [];
      const filled = new Int32Array(rows);
      for (let r = 0; r < rows; r++) this.rowOps.push(new Int32Array(sizes[r]));
      for (let i = 0; i < this.n; i++) {
        const r = this.rowOf[i];
        this.rowOps[r][filled[r]++] = i;
      }
      const call = this.call;
      for (const ops of this.rowOps) {
        let sorted = true;
        for (let k = 1; k < ops.length && sorted; k++) {
          sorted = call[ops[k - 1]] <= call[ops[k]];
        }
        if (!sorted) ops.sort((a, b) => call[a] - call[b] || a - b);
      }
    }

    cite(i) {
      return this.t.cite ? this.t.cite[i] : `operations[${i}]`;
    }

    label(i) {
      const t = this.t;
      const args = t.args[i];
      return t.names[t.name[i]] + (args.length ? "(" + args.join(", ") + ")" : "");
    }

    text(i) {
      const t = this.t;
      const status = t.status[i];
      if (status === "i") return this.label(i) + " → ?";
      if (status === "f") return this.label(i) + " (failed)";
      return this.label(i) + (t.result[i] === null ? "" : " → " + t.result[i]);
    }

    build() {
      const figure = this.figure;
      const toolbar = element("div", "toolbar");
      const button = (text, title, action) => {
        const node = element("button", "", text);
        node.type = "button";
        node.title = title;
        node.addEventListener("click", action);
        toolbar.append(node);
        return node;
      };
      button("−", "Zoom out", () => this.zoom(2, 0.5));
      button("+", "Zoom in", () => this.zoom(0.5, 0.5));
      button("Fit", "Show the whole history", () => { this.fit(); this.draw(); });
      if (this.t.marks) {
        button(
          "Show the failure",
          "Zoom to the failing window and the operations that cannot be placed",
          () => this.showFailure());
      }
      this.search = element("input", "search");
      this.search.type = "search";
      this.search.placeholder = "Search: text, op:NAME or key:KEY";
      this.search.setAttribute("aria-label", "Search operations by name or key");
      toolbar.append(this.search);
      button("Next", "Go to the next match (Enter)", () => this.next(1));
      button("Previous", "Go to the previous match (Shift+Enter)", () => this.next(-1));
      this.count = element("span", "match-count", "");
      toolbar.append(this.count);
      let pending = 0;
      this.search.addEventListener("input", () => {
        clearTimeout(pending);
        pending = setTimeout(() => this.find(this.search.value), 120);
      });
      this.search.addEventListener("keydown", (event) => {
        if (event.key !== "Enter") return;
        clearTimeout(pending);
        if (this.query !== this.search.value) this.find(this.search.value);
        this.next(event.shiftKey ? -1 : 1);
      });

      this.canvas = element("canvas", "lanes");
      this.canvas.setAttribute("role", "img");
      this.canvas.setAttribute("aria-label", "The history's operations, one lane per thread");
      this.details = element(
        "p", "details", "Click an operation for its details. Wheel: zoom; drag: pan.");
      const legend = figure.querySelector(".legend");
      (legend || figure.firstChild).after(toolbar, this.canvas, this.details);

      if (this.candidate.size) {
        const list = element("ul", "marked-operations");
        for (const [i, c] of this.candidate) {
          const item = element("li");
          const mark = c.fits ? "dead-end" : "unplaceable";
          const go = element("button", "marked-operation " + mark);
          go.type = "button";
          go.dataset.operation = String(i);
          go.textContent = c.fits
            ? `Go to ${this.cite(i)} ${this.label(i)}: it fits, but no order after it works`
            : `Go to ${this.cite(i)} ${this.label(i)}: it cannot be placed; it returned `
              + `${c.returned === null ? "?" : c.returned}, the model allows ${c.allowed}`;
          go.addEventListener("click", () => this.goTo(i));
          item.append(go);
          list.append(item);
        }
        this.details.after(list);
      }

      this.selected = -1;
      this.scrollY = 0;
      this.canvas.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
      this.canvas.addEventListener("pointerdown", (event) => this.press(event));
      new ResizeObserver(() => this.draw()).observe(this.figure);
    }

    get plotWidth() { return Math.max(10, this.width - LEFT - RIGHT); }
    x(time) { return LEFT + (time - this.t0) / (this.t1 - this.t0) * this.plotWidth; }
    time(x) { return this.t0 + (x - LEFT) / this.plotWidth * (this.t1 - this.t0); }

    // The canvas's size in CSS pixels: the figure's width, the lanes' height up to a maximum.
    measure() {
      this.width = Math.max(200, this.figure.clientWidth - 18);
      this.height = Math.min(MAX_HEIGHT, AXIS + this.contentHeight + 4);
    }

    // The whole history, with room right of each marked operation for its note.
    fit() {
      this.measure();
      const pad = this.end * 0.03;
      this.t0 = -pad;
      this.t1 = this.end + pad;
      for (const i of this.candidate.keys()) {
        const end = isFinite(this.ret[i]) ? this.ret[i] : this.call[i];
        const room = (this.note(i).length * 7.5 + 16) / this.plotWidth;
        if (room < 0.35) this.t1 = Math.max(this.t1, this.t0 + (end - this.t0) / (1 - room));
      }
    }

    // What the canvas writes beside a marked operation.
    note(i) {
      const c = this.candidate.get(i);
      const returned = c.returned === null ? "?" : c.returned;
      return c.fits
        ? "fits, but no order after it works"
        : `✕ cannot be placed: returned ${returned}; the model allows ${c.allowed}`;
    }

    setRange(t0, t1) {
      const span = Math.max(t1 - t0, 2);
      const limit = (this.end + 2) * 4;
      const clamped = Math.min(span, limit);
      const middle = (t0 + t1) / 2;
      this.t0 = middle - clamped / 2;
      this.t1 = middle + clamped / 2;
      this.draw();
    }

    zoom(factor, at) {
      const pivot = this.t0 + (this.t1 - this.t0) * at;
      this.setRange(pivot - (pivot - this.t0) * factor, pivot + (this.t1 - pivot) * factor);
    }

    wheel(event) {
      event.preventDefault();
      const rect = this.canvas.getBoundingClientRect();
      if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        const delta = (event.shiftKey ? event.deltaY : event.deltaX) / this.plotWidth;
        const shift = delta * (this.t1 - this.t0);
        this.t0 += shift;
        this.t1 += shift;
        this.draw();
        return;
      }
      const at = Math.min(1, Math.max(0, (event.clientX - rect.left - LEFT) / this.plotWidth));
      this.zoom(Math.exp(event.deltaY * 0.0015), at);
    }

    press(event) {
      const startX = event.clientX, startY = event.clientY;
      const t0 = this.t0, t1 = this.t1, scrollY = this.scrollY;
      let moved = false;
      this.canvas.setPointerCapture(event.pointerId);
      this.canvas.style.cursor = "grabbing";
      const move = (e) => {
        const dx = e.clientX - startX, dy = e.clientY - startY;
        if (Math.abs(dx) + Math.abs(dy) > 3) moved = true;
        const shift = -dx / this.plotWidth * (t1 - t0);
        this.t0 = t0 + shift;
        this.t1 = t1 + shift;
        this.scrollY = scrollY - dy;
        this.draw();
      };
      const release = (e) => {
        this.canvas.removeEventListener("pointermove", move);
        this.canvas.removeEventListener("pointerup", release);
        this.canvas.style.cursor = "";
        if (!moved) {
          const rect = this.canvas.getBoundingClientRect();
          this.select(this.hit(e.clientX - rect.left, e.clientY - rect.top));
        }
      };
      this.canvas.addEventListener("pointermove", move);
      this.canvas.addEventListener("pointerup", release);
    }

    // The first operation of a row that returns at or after `time`: rows never overlap within.
    firstEndingAfter(ops, time) {
      let low = 0, high = ops.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (this.ret[ops[middle]] < time) low = middle + 1; else high = middle;
      }
      return low;
    }

    hit(x, y) {
      const row = this.rowAt(y);
      if (row < 0 || x < LEFT) return -1;
      const ops = this.rowOps[row];
      const slack = 3 / this.plotWidth * (this.t1 - this.t0);
      const time = this.time(x);
      for (let k = this.firstEndingAfter(ops, time - slack); k < ops.length; k++) {
        const i = ops[k];
        if (this.call[i] > time + slack) break;
        return i;
      }
      return -1;
    }

    rowAt(y) {
      const content = y - AXIS + this.scrollY;
      for (let r = 0; r < this.rowCount; r++) {
        if (content >= this.rowTop[r] && content < this.rowTop[r] + ROW) return r;
      }
      return -1;
    }

    select(i) {
      this.selected = i;
      this.details.textContent = i < 0 ? "No operation there." : this.describe(i);
      this.draw();
    }

    describe(i) {
      const t = this.t;
      const parts = [
        `${this.cite(i)} ${this.text(i)} on ${t.lanes[t.lane[i]]}`,
        `called at ${t.call[i]}` + (t.ret[i] === null
          ? ", never returned (outcome unknown)" : `, returned at ${t.ret[i]}`),
      ];
      if (this.inWindow[i]) parts.push("in the smallest failing window");
      if (this.order[i]) {
        const placed = t.marks.order.length;
        parts.push(`number ${this.order[i]} of ${placed} in the longest linearization`);
      }
      const c = this.candidate.get(i);
      if (c) {
        parts.push(c.fits
          ? "fits after the longest linearization, but no order after it works"
          : `cannot be placed: it returned ${c.returned === null ? "?" : c.returned}; `
            + `in the state ${t.marks.state} the model allows ${c.allowed}`);
      }
      return parts.join("; ");
    }

    find(query) {
      this.query = query;
      const q = query.trim().toLowerCase();
      this.matches = null;
      this.matchList = [];
      this.cursor = -1;
      if (q) {
        const t = this.t;
        const unquote = (text) => text.replace(/^"(.*)"$/, "$1").toLowerCase();
        let test;
        if (q.startsWith("op:")) {
          const name = q.slice(3).trim();
          test = (i) => t.names[t.name[i]].toLowerCase() === name;
        } else if (q.startsWith("key:")) {
          const key = unquote(query.trim().slice(4).trim());
          test = (i) => t.args[i].length > 0 && unquote(t.args[i][0]) === key;
        } else {
          if (!this.lowered) {
            this.lowered = new Array(this.n);
            for (let i = 0; i < this.n; i++) this.lowered[i] = this.text(i).toLowerCase();
          }
          test = (i) => this.lowered[i].includes(q);
        }
        this.matches = new Uint8Array(this.n);
        for (let i = 0; i < this.n; i++) {
          if (test(i)) {
            this.matches[i] = 1;
            this.matchList.push(i);
          }
        }
        this.matchList.sort((a, b) => this.call[a] - this.call[b] || a - b);
      }
      const found = this.matchList.length;
      this.count.textContent = q ? `${found} match${found === 1 ? "" : "es"}` : "";
      this.figure.setAttribute("data-matches", String(this.matchList.length));
      this.draw();
    }

    next(step) {
      if (!this.matchList.length) return;
      const count = this.matchList.length;
      this.cursor = ((this.cursor + step) % count + count) % count;
      this.count.textContent = `${this.cursor + 1} of ${count} matches`;
      this.goTo(this.matchList[this.cursor]);
    }

    // Centres the view on operation i, zoomed in far enough to read it, and selects it.
    goTo(i) {
      const end = isFinite(this.ret[i]) ? this.ret[i] : this.call[i] + (this.t1 - this.t0) / 4;
      const length = Math.max(end - this.call[i], 1);
      let span = this.t1 - this.t0;
      if (length / span * this.plotWidth < 60) span = length * this.plotWidth / 60;
      const middle = (this.call[i] + end) / 2;
      const row = this.rowOf[i];
      const height = this.height - AXIS;
      if (this.rowTop[row] < this.scrollY || this.rowTop[row] + ROW > this.scrollY + height) {
        this.scrollY = this.rowTop[row] - height / 2;
      }
      this.selected = i;
      this.details.textContent = this.describe(i);
      this.setRange(middle - span / 2, middle + span / 2);
    }

    showFailure() {
      const marks = this.t.marks;
      const focus = (marks.window && marks.window.length ? marks.window : marks.order)
        .concat(marks.candidates.map((c) => c.operation));
      if (!focus.length) return;
      let first = Infinity, last = -Infinity;
      for (const i of focus) {
        first = Math.min(first, this.call[i]);
        last = Math.max(last, isFinite(this.ret[i]) ? this.ret[i] : this.call[i]);
      }
      const pad = (last - first) * 0.05 + 1;
      if (marks.candidates.length) {
        const row = this.rowOf[marks.candidates[0].operation];
        this.scrollY = this.rowTop[row] - (this.height - AXIS) / 2;
      }
      this.setRange(first - pad, last + pad);
    }

    draw() {
      const canvas = this.canvas;
      const ratio = window.devicePixelRatio || 1;
      this.measure();
      const maxScroll = Math.max(0, AXIS + this.contentHeight + 4 - this.height);
      this.scrollY = Math.min(Math.max(0, this.scrollY), maxScroll);
      const pixelWidth = Math.round(this.width * ratio);
      const pixelHeight = Math.round(this.height * ratio);
      if (canvas.width !== pixelWidth || canvas.height !== pixelHeight) {
        canvas.width = pixelWidth;
        canvas.height = pixelHeight;
        canvas.style.height = this.height + "px";
      }
      const g = canvas.getContext("2d");
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      g.clearRect(0, 0, this.width, this.height);
      g.font = "12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";
      g.textBaseline = "middle";
      const charWidth = g.measureText("0").width || 7;
      const t0 = this.t0, t1 = this.t1, right = this.width - RIGHT;

      if (this.band) {
        const x0 = Math.max(LEFT, this.x(this.band[0]));
        const x1 = Math.min(right, this.x(this.band[1]));
        if (x1 > x0) {
          g.fillStyle = colours.band;
          g.fillRect(x0, AXIS, Math.max(1, x1 - x0), this.height - AXIS);
        }
      }

      // The faults a nemesis injected: a band across every lane, from the fault to its healing.
      let faultsInView = 0;
      for (const fault of this.faults) {
        const x0 = Math.max(LEFT, this.x(fault.start));
        const x1 = fault.end === null ? right : Math.min(right, this.x(fault.end));
        if (x0 >= right || x1 <= LEFT) continue;
        g.fillStyle = colours.fault;
        g.fillRect(x0, AXIS, Math.max(2, x1 - x0), this.height - AXIS);
        g.fillStyle = colours.faultText;
        g.fillText(fault.kind + " " + fault.target, x0 + 3, AXIS + 7);
        faultsInView++;
      }
      // What a browser test reads: the bands this drawing put on the canvas.
      this.figure.setAttribute("data-drawn-faults", String(faultsInView));

      // The lanes' stripes and titles.
      g.save();
      g.beginPath();
      g.rect(0, AXIS, this.width, this.height - AXIS);
      g.clip();
      this.t.lanes.forEach((title, lane) => {
        const top = AXIS + this.rowTop[this.laneFirstRow[lane]] - this.scrollY;
        const rows = this.t.rowsPerLane[lane];
        if (top > this.height || top + rows * ROW < AXIS) return;
        g.fillStyle = lane % 2 ? "rgba(0,0,0,0.035)" : "rgba(0,0,0,0)";
        g.fillRect(0, top - LANE_GAP / 2, this.width, rows * ROW + LANE_GAP);
        g.fillStyle = colours.text;
        const fitting = Math.floor((LEFT - 12) / charWidth);
        const shown = title.length > fitting ? title.slice(0, fitting - 1) + "…" : title;
        g.fillText(shown, 6, top + ROW / 2);
      });

      // The operations, row by row, only those in view; bars thinner than a pixel share it.
      const overlay = [];
      for (let r = 0; r < this.rowCount; r++) {
        const top = AXIS + this.rowTop[r] - this.scrollY;
        if (top > this.height || top + ROW < AXIS) continue;
        const y = top + (ROW - BAR) / 2;
        const ops = this.rowOps[r];
        let lastPixel = -1, lastKind = -1;
        for (let k = this.firstEndingAfter(ops, t0); k < ops.length; k++) {
          const i = ops[k];
          const call = this.call[i];
          if (call > t1) break;
          const x0 = Math.max(LEFT, this.x(call));
          const x1 = isFinite(this.ret[i]) ? Math.min(right, this.x(this.ret[i])) : right;
          const width = Math.max(1, x1 - x0);
          const kind = this.kind[i];
          const matched = this.matches && this.matches[i];
          if (kind >= KIND.deadEnd || i === this.selected || matched) {
            overlay.push(i);
          }
          const pixel = Math.floor(x0);
          if (width < 2 && pixel <= lastPixel && kind <= lastKind) continue;
          lastPixel = Math.floor(x0 + width);
          lastKind = kind;
          const status = this.t.status[i];
          g.fillStyle = status === "f" ? colours.failed : fill[kind];
          g.globalAlpha = status === "i" ? 0.45 : 1;
          g.fillRect(x0, y, width, BAR);
          g.globalAlpha = 1;
          if (width > 5 * charWidth) this.caption(g, i, x0, y, width, charWidth, kind);
        }
      }

      // Marked, matching and selected operations on top, at least a few pixels wide.
      for (const i of overlay) {
        const top = AXIS + this.rowTop[this.rowOf[i]] - this.scrollY;
        const y = top + (ROW - BAR) / 2;
        let x0 = Math.max(LEFT, this.x(this.call[i]));
        const x1 = isFinite(this.ret[i]) ? Math.min(right, this.x(this.ret[i])) : right;
        let width = x1 - x0;
        if (width < 4) { x0 -= (4 - width) / 2; width = 4; }
        const kind = this.kind[i];
        if (kind >= KIND.deadEnd) {
          g.fillStyle = fill[kind];
          g.fillRect(x0, y, width, BAR);
          if (width > 5 * charWidth) this.caption(g, i, x0, y, width, charWidth, kind);
          g.lineWidth = 2;
          g.strokeStyle = kind === KIND.unplaceable ? "#7a0c06" : "#8a4b00";
          g.strokeRect(x0 - 1, y - 1, width + 2, BAR + 2);
              const note = this.note(i);
          const noteX = x0 + width + 6;
          if (noteX + note.length * charWidth < right) {
            g.fillStyle = g.strokeStyle;
            g.font = "bold 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";
            g.fillText(note, noteX, y + BAR / 2);
            g.font = "12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";
          }
        }
        if (this.matches && this.matches[i]) {
          g.lineWidth = 2;
          g.strokeStyle = colours.match;
          g.strokeRect(x0 - 2, y - 2, width + 4, BAR + 4);
        }
        if (i === this.selected) {
          g.lineWidth = 2;
          g.strokeStyle = colours.text;
          g.strokeRect(x0 - 3, y - 3, width + 6, BAR + 6);
        }
      }
      g.restore();

      // Where each operation that cannot be placed was called: a line through every lane.
      g.setLineDash([4, 3]);
      g.lineWidth = 1;
      for (const [i, c] of this.candidate) {
        const x = this.x(this.call[i]);
        if (x < LEFT || x > right) continue;
        g.strokeStyle = c.fits ? colours.deadEnd : colours.unplaceable;
        g.beginPath();
        g.moveTo(x, AXIS);
        g.lineTo(x, this.height);
        g.stroke();
        g.fillStyle = g.strokeStyle;
        g.beginPath();
        g.moveTo(x - 6, AXIS - 10);
        g.lineTo(x + 6, AXIS - 10);
        g.lineTo(x, AXIS);
        g.fill();
      }
      g.setLineDash([]);
      this.axis(g, right);
    }

    // The operation's call, result and place in the longest linearization, cut to fit its bar.
    caption(g, i, x0, y, width, charWidth, kind) {
      const prefix = this.order[i] ? "#" + this.order[i] + " " : "";
      let text = prefix + this.text(i);
      const fitting = Math.floor((width - 6) / charWidth);
      if (text.length > fitting) text = text.slice(0, Math.max(0, fitting - 1)) + "…";
      g.fillStyle = kind === KIND.op || this.t.status[i] !== "o" ? colours.text : "#ffffff";
      g.fillText(text, x0 + 3, y + BAR / 2 + 0.5);
    }

    // Ticks in the history's own time unit, at 1, 2 or 5 times a power of ten.
    axis(g, right) {
      g.fillStyle = "#ffffff";
      g.fillRect(0, 0, this.width, AXIS - 10);
      g.fillStyle = "#57606a";
      g.strokeStyle = "#d0d7de";
      g.lineWidth = 1;
      const span = this.t1 - this.t0;
      const rough = span / Math.max(2, this.plotWidth / 110);
      const power = Math.pow(10, Math.floor(Math.log10(rough)));
      const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
      g.fillText("time", 6, 8);
      for (let tick = Math.ceil(this.t0 / step) * step; tick <= this.t1; tick += step) {
        const x = Math.round(this.x(tick)) + 0.5;
        // Times count from the first call: there is nothing before 0.
        if (x < LEFT || x > right || tick < 0) continue;
        g.beginPath();
        g.moveTo(x, AXIS - 8);
        g.lineTo(x, AXIS);
        g.stroke();
        g.fillText(short(tick), x + 3, 8);
      }
    }
  }

  let operations = 0;
  for (const figure of document.querySelectorAll("figure.timeline[data-timeline]")) {
    const timeline = data.timelines[Number(figure.dataset.timeline)];
    if (!timeline) continue;
    new TimelineView(figure, timeline);
    operations += timeline.lane.length;
  }
  const root = document.documentElement;
  root.setAttribute("data-drawn-operations", String(operations));
  root.setAttribute("data-script-ms", (performance.now() - started).toFixed(1));
  root.setAttribute("data-load-ms", performance.now().toFixed(1));
})();
