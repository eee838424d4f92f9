// The fleet's page's one script (served as a file: the page's policy allows no inline script).
// What the server-rendered page can not do by itself:
//   - times in the viewer's time zone: every time comes as <time datetime="...Z">, in UTC;
//   - the charts, drawn by Chart.js from /api/charts;
//   - updates while a run goes, without a reload: it asks /api/version every 2 seconds (a small
//     JSON answer) and, when the fleet changed, fetches the same address again and puts its
//     regions marked data-live in place of the ones shown, and redraws the charts (at most every
//     15 seconds).
// Without it the page still works: the filters, the search, the sorting and the pages are links
// and a form.
"use strict";
(() => {
  var POLL_MS = 2000;
  // Short in tables: the time alone today, the day without the year this year; the whole in its title.
  var today = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
  var thisYear = new Intl.DateTimeFormat(undefined, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  var dateTime = new Intl.DateTimeFormat(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  var dayOf = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "numeric", day: "numeric" });
  var yearOf = new Intl.DateTimeFormat(undefined, { year: "numeric" });

  function short(d) {
    var now = new Date();
    if (dayOf.format(d) === dayOf.format(now)) return `today ${today.format(d)}`;
    if (yearOf.format(d) === yearOf.format(now)) return thisYear.format(d);
    return dateTime.format(d);
  }
  var full = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" });
  var hourOnly = new Intl.DateTimeFormat(undefined, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
  var clock = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

  function formatTimes(root) {
    var times = root.querySelectorAll("time[datetime]");
    for (let i = 0; i < times.length; i++) {
      const d = new Date(times[i].getAttribute("datetime"));
      if (Number.isNaN(d.getTime())) continue;
      times[i].textContent = short(d);
      times[i].title = full.format(d);
    }
  }

  var zone = document.getElementById("tz");
  if (zone) zone.textContent = Intl.DateTimeFormat().resolvedOptions().timeZone || "your time zone";
  formatTimes(document);

  // --- the charts ---------------------------------------------------------------------------------
  var RESULT_COLOURS = {
    succeeded: "#2e7d32",
    failed: "#c62828",
    retrying: "#b35c00",
    running: "#1565c0",
    queued: "#757575",
  };
  var charts = {};

  function seconds(s) {
    if (s === null) return "";
    if (s < 60) return `${s} s`;
    if (s < 3600) return `${s / 60} min`;
    return `${s / 3600} h`;
  }

  function configs(data) {
    var hours = data.perHour.hours.map((h) => hourOnly.format(new Date(h)));
    var results = Object.keys(data.perHour.results);
    var common = {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { position: "bottom" } },
    };
    function options(extra) {
      return Object.assign({}, common, extra);
    }
    return {
      "per-hour": {
        type: "bar",
        data: {
          labels: hours,
          datasets: results.map((r) => ({
            label: r,
            data: data.perHour.results[r],
            backgroundColor: RESULT_COLOURS[r] || "#5e35b1",
          })),
        },
        options: options({
          scales: {
            x: { stacked: true, ticks: { maxRotation: 0, autoSkipPadding: 16 } },
            y: { stacked: true, beginAtZero: true, title: { display: true, text: "stacks" }, ticks: { precision: 0 } },
          },
        }),
      },
      durations: {
        type: "bar",
        data: {
          labels: data.durations.buckets.map((b) =>
            b.to === null ? `≥ ${seconds(b.from)}` : `${seconds(b.from)} to ${seconds(b.to)}`,
          ),
          datasets: [
            {
              label: "stacks",
              data: data.durations.buckets.map((b) => b.count),
              backgroundColor: "#1565c0",
            },
          ],
        },
        options: options({
          plugins: { legend: { display: false } },
          scales: {
            y: { beginAtZero: true, title: { display: true, text: "stacks" }, ticks: { precision: 0 } },
            x: { title: { display: true, text: "duration" } },
          },
        }),
      },
      requests: {
        type: "bar",
        data: {
          labels: data.requests.runs.map((r) => `${hourOnly.format(new Date(r.at))} ${r.operation}`),
          datasets: [
            {
              type: "bar",
              label: "API requests",
              data: data.requests.runs.map((r) => r.requests),
              backgroundColor: "#1565c0",
              yAxisID: "y",
            },
            {
              type: "line",
              label: "answered 429",
              data: data.requests.runs.map((r) => r.rateLimited),
              borderColor: "#c62828",
              backgroundColor: "#c62828",
              yAxisID: "y1",
            },
          ],
        },
        options: options({
          scales: {
            y: { beginAtZero: true, title: { display: true, text: "requests" } },
            y1: {
              beginAtZero: true,
              position: "right",
              grid: { drawOnChartArea: false },
              title: { display: true, text: "429s" },
              ticks: { precision: 0 },
            },
            x: { ticks: { maxRotation: 0, autoSkipPadding: 16 } },
          },
        }),
      },
      drifted: {
        type: "line",
        data: {
          labels: data.drifted.runs.map((r) => hourOnly.format(new Date(r.at))),
          datasets: [
            {
              label: "drifted",
              data: data.drifted.runs.map((r) => r.drifted),
              borderColor: "#b35c00",
              backgroundColor: "#b35c00",
            },
            {
              label: "checked",
              data: data.drifted.runs.map((r) => r.checked),
              borderColor: "#757575",
              backgroundColor: "#757575",
              borderDash: [6, 4],
            },
          ],
        },
        options: options({
          scales: {
            y: { beginAtZero: true, title: { display: true, text: "stacks" }, ticks: { precision: 0 } },
            x: { ticks: { maxRotation: 0, autoSkipPadding: 16 } },
          },
        }),
      },
    };
  }

  // While a run goes the page changes every few seconds; the charts, which read the whole
  // history, are drawn again at most every 15 seconds (and once more after the last change).
  var CHART_EVERY_MS = 15000;
  var chartsDrawnAt = 0;
  var chartsDue = null;

  function chartsSoon() {
    if (chartsDue) return;
    chartsDue = setTimeout(
      () => {
        chartsDue = null;
        drawCharts().catch(() => {});
      },
      Math.max(0, chartsDrawnAt + CHART_EVERY_MS - Date.now()),
    );
  }

  function drawCharts() {
    if (!document.getElementById("charts") || !window.Chart) return Promise.resolve();
    chartsDrawnAt = Date.now();
    return fetch("/api/charts", { headers: { accept: "application/json" }, cache: "no-store" })
      .then((res) => (res.ok ? res.json() : null))
      .then((data) => {
        if (!data) return;
        var all = configs(data);
        Object.keys(all).forEach((id) => {
          var config = all[id];
          var empty = config.data.datasets.every((ds) => ds.data.every((v) => !v));
          var note = document.getElementById(`empty-${id}`);
          if (note) note.hidden = !empty;
          if (charts[id]) {
            charts[id].data = config.data;
            charts[id].update();
          } else {
            charts[id] = new window.Chart(document.getElementById(`chart-${id}`), config);
          }
        });
        document.getElementById("charts").setAttribute("data-drawn", "true");
      });
  }

  // --- updates while a run goes ---------------------------------------------------------------------
  var updated = document.getElementById("updated");

  /** The same address again; its live regions in place of these, the focus kept on the same link. */
  function refresh() {
    return fetch(location.href, { headers: { accept: "text/html" }, cache: "no-store" }).then((res) => {
      if (!res.ok) return false;
      return res.text().then((text) => {
        var doc = new DOMParser().parseFromString(text, "text/html");
        var focused = document.activeElement;
        var focusHref = focused?.getAttribute ? focused.getAttribute("href") : null;
        var regions = document.querySelectorAll("[data-live][id]");
        for (let i = 0; i < regions.length; i++) {
          const fresh = doc.getElementById(regions[i].id);
          if (!fresh) continue;
          const hadFocus = regions[i].contains(focused);
          const region = document.adoptNode(fresh);
          regions[i].replaceWith(region);
          formatTimes(region);
          if (hadFocus && focusHref) {
            const again = region.querySelector(`a[href="${CSS.escape(focusHref)}"]`);
            if (again) again.focus();
          }
        }
        document.body.setAttribute("data-version", doc.body.getAttribute("data-version") || "");
        return true;
      });
    });
  }

  function poll() {
    var next = () => {
      setTimeout(poll, POLL_MS);
    };
    if (document.hidden) return next();
    fetch("/api/version", { headers: { accept: "application/json" }, cache: "no-store" })
      .then((res) => (res.ok ? res.json() : null))
      .then((v) => {
        if (!v || v.version === document.body.getAttribute("data-version")) return;
        return refresh().then((done) => {
          if (!done) return;
          if (updated) updated.textContent = `Updated at ${clock.format(new Date())}.`;
          chartsSoon();
        });
      })
      // The server gone for a moment (a restart): the next poll tries again.
      .catch(() => {})
      .then(next);
  }

  drawCharts().catch(() => {});
  setTimeout(poll, POLL_MS);
})();
