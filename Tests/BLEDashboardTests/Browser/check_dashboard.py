"""Drives `ble dashboard`'s page in headless Chromium (Debian's chromium and chromium-driver,
through Selenium) over a running bus-fleet world, as DashboardBrowserTests runs it.

Usage: check_dashboard.py URL [SCREENSHOT_DIR]

Checks, each waited for (the world runs in real time), in order: the page connects; the map
shows the three stops and the bus; the bus marker moves between two screenshots; the RSSI plot
has points; the event log shows the bus entering a stop; the office view (the back end over
the store) says where bus 42 is; the browser's console holds no error. Then it prints RESTART,
waits for a line on standard input (the test has restarted the server) and checks that the page
reconnects to the new server on its own. Prints one line per check and RESULT {...} at the end;
exits 1 with FAIL <why> at the first check that does not hold.
"""

import json
import os
import sys

import browser_support
from browser_support import fail

WAIT = 60  # seconds any one condition may take on a loaded machine


def wait_for(driver, what, script, shown=None):
    """`browser_support.wait_for` with this check's patience."""
    return browser_support.wait_for(driver, what, script, WAIT, shown)


def main():
    url = sys.argv[1]
    screenshots = sys.argv[2] if len(sys.argv) > 2 else None
    driver = browser_support.start_chromium()
    result = {}
    try:
        driver.get(url)
        wait_for(driver, "the page connecting", "return document.getElementById('status').dataset.state === 'connected'")
        session = driver.execute_script("return document.body.dataset.session")
        print("connected, session " + session, flush=True)

        stops = wait_for(driver, "the map showing the three stops",
                         "const names = [...document.querySelectorAll('#map #devices text')].map(t => t.textContent);"
                         "const stops = names.filter(n => /^stop \\d gateway$/.test(n));"
                         "return stops.length === 3 ? stops : null")
        print("map shows " + ", ".join(stops), flush=True)
        wait_for(driver, "the bus marker", "return document.querySelector('#live [data-name=\"bus\"]') !== null")

        first_x = float(driver.execute_script("return document.querySelector('#live [data-name=\"bus\"]').dataset.x"))
        first = driver.get_screenshot_as_png()
        wait_for(driver, "the bus marker moving",
                 "return parseFloat(document.querySelector('#live [data-name=\"bus\"]').dataset.x) > %f + 5" % first_x)
        second_x = float(driver.execute_script("return document.querySelector('#live [data-name=\"bus\"]').dataset.x"))
        second = driver.get_screenshot_as_png()
        if first == second:
            fail("the two screenshots are identical although the bus marker moved from x = %.1f to %.1f" % (first_x, second_x))
        if screenshots:
            for name, png in (("dashboard-1.png", first), ("dashboard-2.png", second)):
                with open(os.path.join(screenshots, name), "wb") as file:
                    file.write(png)
        result["busMarkerX"] = [first_x, second_x]
        print("bus marker moved from x = %.1f to %.1f px between two screenshots" % (first_x, second_x), flush=True)

        points = wait_for(driver, "points on the RSSI plot",
                          "const counts = [...document.querySelectorAll('#rssi polyline')].map(p => +p.dataset.count);"
                          "const total = counts.reduce((a, b) => a + b, 0); return total > 0 ? total : null")
        result["rssiPoints"] = points
        print("RSSI plot has %d points" % points, flush=True)

        entered = wait_for(driver, "the event log showing the bus entering a stop",
                           "const item = [...document.querySelectorAll('#events li[data-kind=\"enter\"]')]"
                           ".find(li => li.dataset.who === 'bus' && / entered stop \\d$/.test(li.textContent));"
                           "return item ? item.textContent : null")
        result["busEntered"] = entered
        print("event log: " + entered, flush=True)

        where = wait_for(driver, "the office view saying where bus 42 is",
                         "const row = [...document.querySelectorAll('#office tbody tr')]"
                         ".find(r => /^bus .*beacon$/.test(r.cells[1].textContent) && /^stop \\d$/.test(r.dataset.zone));"
                         "return row ? [row.dataset.identity, row.cells[1].textContent, row.dataset.zone] : null", shown="office-panel")
        result["bus42"] = where
        print("office: %s (%s) is at %s" % tuple(where), flush=True)

        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
        if errors:
            fail("the console has errors: " + json.dumps(errors))
        print("console: no errors", flush=True)
        latency = driver.execute_script("return [+document.body.dataset.latency, +document.body.dataset.maxLatency]")
        result["latencyMilliseconds"] = {"last": latency[0], "max": latency[1]}
        print("from a server tick to the screen: last %d ms, at most %d ms" % tuple(latency), flush=True)

        print("RESTART", flush=True)
        if sys.stdin.readline().strip() != "restarted":
            fail("the test did not restart the server")
        wait_for(driver, "the page reconnecting to the restarted server",
                 "return document.getElementById('status').dataset.state === 'connected'"
                 " && document.body.dataset.session !== '%s'" % session)
        result["reconnected"] = True
        print("reconnected to the restarted server", flush=True)
    finally:
        driver.quit()
    print("RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
