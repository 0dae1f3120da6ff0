#!/usr/bin/env python3
"""carta-perf.py BINARY [RUNS]: the guests' page's first view, measured in headless Chromium.

comanda (the given build) on a free loopback port with the house menu; a
390x844 phone opens `/` RUNS times (10 by default), each time with an empty
cache (the browser's cache disabled through the DevTools protocol), and
reads the Performance API:
  bytes  the transfer sizes (headers and gzip bodies as they crossed the
         wire) of the page and every resource but the photos
  paint  the menu's first paint: the `carta-pintada` mark carta.js sets in
         the frame after it first draws the menu, from navigation start
Prints each run and the medians (targets: 60 KiB, 300 ms). A benchmark, not
a test: it asserts nothing. The server is stopped by its PID.
"""
import statistics
import sys

from browsercheck import Server, browser, waiting

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/comanda"
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 10

MEASURE = """
const nav = performance.getEntriesByType("navigation")[0];
const resources = performance.getEntriesByType("resource");
const counted = resources.filter(r => r.initiatorType !== "img" && !r.name.includes("/foto"));
const mark = performance.getEntriesByName("carta-pintada")[0];
return {bytes: nav.transferSize + counted.reduce((n, r) => n + r.transferSize, 0),
        photos: resources.length - counted.length,
        names: counted.map(r => r.name.replace(location.origin, "") + " " + r.transferSize),
        paint: mark ? mark.startTime : null};
"""

with Server(BIN, "jefa", "gerente", "secreto-de-carta") as server:
    phone = browser(390, 844)
    try:
        phone.execute_cdp_cmd("Network.enable", {})
        phone.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        results = []
        for run in range(RUNS):
            phone.get("about:blank")
            phone.get(server.base + "/")
            waiting(phone, 10, 0.02).until(lambda d: d.execute_script("return performance.getEntriesByName('carta-pintada').length"))
            # The photos in view load lazily: wait until the network is quiet, then count what the first view cost.
            waiting(phone, 10, 0.1).until(lambda d: d.execute_script("return document.readyState") == "complete")
            seen = phone.execute_script(MEASURE)
            results.append(seen)
            print(f"run {run + 1}: {seen['bytes'] / 1024:.1f} KiB without the {seen['photos']} photos, menu painted at {seen['paint']:.0f} ms")
        print("counted:", ", ".join(results[-1]["names"]))
        bytes_median = statistics.median(r["bytes"] for r in results) / 1024
        paint_median = statistics.median(r["paint"] for r in results)
        print(f"carta-perf: median {bytes_median:.1f} KiB for the first view (photos aside; target 60 KiB), "
              f"menu's first paint at {paint_median:.0f} ms (target 300 ms), {RUNS} loads with an empty cache")
    finally:
        phone.quit()
