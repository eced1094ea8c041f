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
import time

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 60  # seconds any one condition may take on a loaded machine


def fail(why):
    print("FAIL " + why, flush=True)
    sys.exit(1)


def wait_for(driver, what, script, shown=None):
    """Waits until `script` (JavaScript returning a value) returns something truthy; returns it.
    On failure, says what the element with the id `shown` showed."""
    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.2).until(lambda d: d.execute_script(script))
    except TimeoutException:
        seen = ""
        if shown:
            seen = "; #%s showed: %s" % (shown, driver.execute_script("return document.getElementById('%s').innerText" % shown))
        fail(what + " did not happen within %d s" % WAIT + seen)


def main():
    url = sys.argv[1]
    screenshots = sys.argv[2] if len(sys.argv) > 2 else None
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1100"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
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
