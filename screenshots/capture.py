#!/usr/bin/env python3
"""Screenshots of the real TUI: runs the built binary in a private tmux server, drives it with
keys, captures each situation with colors (`capture-pane -e`) and writes it as an SVG of the cell
grid. Run from the package root after `swift build`:

    python3 screenshots/capture.py [path/to/storekeeper] [customers|retention|multiseat|commerce]   # that one only
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata

try:
    from wcwidth import wcwidth as _wcwidth
except ImportError:  # pragma: no cover
    _wcwidth = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "storekeeper")
SOCKET = "sk-shots-%d" % os.getpid()
WIDTH, HEIGHT = 120, 34

PALETTE = ["#1d1f21", "#cc6666", "#5fae5f", "#d7a83a", "#5f87d7", "#b294bb", "#5fafaf", "#d0d0d0",
           "#666666", "#ff8787", "#87d787", "#ffd75f", "#87afff", "#d7afff", "#87d7d7", "#ffffff"]
FOREGROUND, BACKGROUND = "#d0d0d0", "#1d1f21"


def tmux(*args):
    return subprocess.run(["tmux", "-L", SOCKET, "-f", "/dev/null", *args], check=False,
                          capture_output=True, text=True).stdout


def width(ch):
    if _wcwidth is not None:
        return max(0, _wcwidth(ch))
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def parse(ansi):
    """The capture as rows of (char, width, style) cells."""
    rows = []
    style = {"fg": None, "bg": None, "bold": False, "dim": False, "underline": False, "reverse": False}
    for line in ansi.split("\n")[:HEIGHT]:
        cells = []
        for token in re.split(r"(\x1b\[[0-9;]*m)", line):
            if token.startswith("\x1b["):
                codes = [int(c) if c else 0 for c in token[2:-1].split(";")]
                i = 0
                while i < len(codes):
                    code = codes[i]
                    if code == 0:
                        style = {"fg": None, "bg": None, "bold": False, "dim": False, "underline": False, "reverse": False}
                    elif code == 1: style["bold"] = True
                    elif code == 2: style["dim"] = True
                    elif code == 4: style["underline"] = True
                    elif code == 7: style["reverse"] = True
                    elif code == 22: style["bold"] = style["dim"] = False
                    elif code == 24: style["underline"] = False
                    elif code == 27: style["reverse"] = False
                    elif 30 <= code <= 37: style["fg"] = code - 30
                    elif 90 <= code <= 97: style["fg"] = code - 90 + 8
                    elif code == 39: style["fg"] = None
                    elif 40 <= code <= 47: style["bg"] = code - 40
                    elif 100 <= code <= 107: style["bg"] = code - 100 + 8
                    elif code == 49: style["bg"] = None
                    elif code in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                        style["fg" if code == 38 else "bg"] = codes[i + 2] if codes[i + 2] < 16 else 7
                        i += 2
                    i += 1
                continue
            for ch in token:
                w = width(ch)
                if w == 0 and cells:
                    cells[-1] = (cells[-1][0] + ch, cells[-1][1], cells[-1][2])
                    continue
                cells.append((ch, max(1, w), dict(style)))
        rows.append(cells)
    return rows


def svg(rows, title):
    cw, ch = 8.4, 18
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="DejaVu Sans Mono, Noto Sans Mono CJK JP, Menlo, monospace" font-size="14">'
           % (WIDTH * cw + 16, HEIGHT * ch + 16),
           '<title>%s</title>' % title,
           '<rect width="100%%" height="100%%" fill="%s"/>' % BACKGROUND]
    for y, cells in enumerate(rows):
        # Runs of narrow cells with one style become one text element; wide cells stand alone.
        runs, x = [], 0
        for text, w, st in cells:
            if runs and w == 1 and runs[-1][2] == st and runs[-1][3]:
                runs[-1][1] += text
                runs[-1][4] += 1
            else:
                runs.append([x, text, st, w == 1, w])
            x += w
        for start, text, s_, _, w in runs:
            fg = PALETTE[s_["fg"]] if s_["fg"] is not None else FOREGROUND
            bg = PALETTE[s_["bg"]] if s_["bg"] is not None else None
            if s_["reverse"]:
                fg, bg = (bg or BACKGROUND), fg
            px, py = 8 + start * cw, 8 + y * ch
            if bg:
                out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>' % (px, py, w * cw, ch, bg))
            if text.strip():
                esc = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                attrs = ' font-weight="bold"' if s_["bold"] else ""
                attrs += ' opacity="0.6"' if s_["dim"] else ""
                attrs += ' text-decoration="underline"' if s_["underline"] else ""
                out.append('<text x="%.1f" y="%d" fill="%s"%s xml:space="preserve" textLength="%.1f" lengthAdjust="spacingAndGlyphs">%s</text>'
                           % (px, py + 14, fg, attrs, w * cw, esc))
    out.append("</svg>")
    return "\n".join(out)


def shot(name, title):
    time.sleep(0.6)
    ansi = tmux("capture-pane", "-e", "-p", "-t", "0")
    with open(os.path.join(ROOT, "screenshots", name + ".svg"), "w") as f:
        f.write(svg(parse(ansi), title))
    print("wrote screenshots/%s.svg" % name)


def keys(*names):
    for name in names:
        tmux("send-keys", "-t", "0", name)
        time.sleep(0.05)


def scroll_until(text, limit=120):
    """j until `text` shows in the pane."""
    for _ in range(limit):
        if text in tmux("capture-pane", "-p", "-t", "0"):
            return
        keys("j")


def command(line):
    keys(":")
    tmux("send-keys", "-t", "0", "-l", line)
    keys("Enter")


def session(config, state, extra="", size=(120, 34)):
    global WIDTH, HEIGHT
    WIDTH, HEIGHT = size
    tmux("kill-server")
    time.sleep(0.3)
    script = ("cd '%s' && XDG_STATE_HOME='%s' LANG=C.UTF-8 TERM=xterm-256color '%s' '%s' --start 2026-11-22T02:00:00Z --paused %s; sleep 60"
              % (ROOT, state, BINARY, config, extra))
    tmux("new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), "bash", "-c", script)
    # Wait for the first frame (a cold binary or a big catalog can take a while).
    deadline = time.time() + 15
    while "Products" not in tmux("capture-pane", "-p", "-t", "0") and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)


def catch_up():
    """A journal left a week behind at one renewal every two seconds, reopened."""
    state = tempfile.mkdtemp()
    try:
        journal = os.path.join(state, "behind.journal")
        week_ago = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 7 * 86400))
        subprocess.run([BINARY, "run", "Configs/FoodTruck.storekit", "--journal", journal,
                        "--start", week_ago], cwd=ROOT, capture_output=True, text=True,
                       input="set time-rate oneRenewalEveryTwoSeconds\n"
                             "buy socialfeed.premium.monthly\nbuy socialfeed.monthly\n",
                       env=dict(os.environ, XDG_STATE_HOME=state))
        tmux("kill-server")
        global WIDTH, HEIGHT
        WIDTH, HEIGHT = 120, 34
        time.sleep(0.5)  # the previous server lets go of the socket
        script = ("cd '%s' && XDG_STATE_HOME='%s' LANG=C.UTF-8 TERM=xterm-256color '%s' "
                  "Configs/FoodTruck.storekit --journal '%s'; sleep 60" % (ROOT, state, BINARY, journal))
        tmux("new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), "bash", "-c", script)
        deadline = time.time() + 20
        while "s left" not in tmux("capture-pane", "-p", "-t", "0") and time.time() < deadline:
            time.sleep(0.05)
        ansi = tmux("capture-pane", "-e", "-p", "-t", "0")
        with open(os.path.join(ROOT, "screenshots", "catching-up.svg"), "w") as f:
            f.write(svg(parse(ansi), "Reopening a journal a week behind: the catch-up's progress"))
        print("wrote screenshots/catching-up.svg")
        keys("q")
    finally:
        tmux("kill-server")
        shutil.rmtree(state, ignore_errors=True)


def customers_view():
    """A 2,000-customer population's customers view at 80x24 and, sorted by revenue, at 120x40."""
    state = tempfile.mkdtemp()
    try:
        journal = os.path.join(state, "population.journal")
        subprocess.run([BINARY, "simulate", "Configs/FoodTruck.storekit", "--customers", "2000",
                        "--months", "12", "--seed", "7", "--journal", journal], cwd=ROOT,
                       capture_output=True, text=True, env=dict(os.environ, XDG_STATE_HOME=state))
        global WIDTH, HEIGHT
        for size, name, title, steps in [
            ((80, 24), "customers-view-80x24",
             "A 2,000-customer population opens on its customers view (80x24)", []),
            ((120, 40), "customers-view-120x40",
             "Customers sorted by revenue, filtered to subscribers (7 7, /status:sub)",
             ["7", "7", "/", "status:sub", "Enter"]),
        ]:
            tmux("kill-server")
            time.sleep(0.5)
            WIDTH, HEIGHT = size
            script = ("cd '%s' && XDG_STATE_HOME='%s' LANG=C.UTF-8 TERM=xterm-256color '%s' "
                      "Configs/FoodTruck.storekit --journal '%s' --paused; sleep 60"
                      % (ROOT, state, BINARY, journal))
            tmux("new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), "bash", "-c", script)
            # A population's session opens on its customers view.
            deadline = time.time() + 30
            while "Enter opens one" not in tmux("capture-pane", "-p", "-t", "0") \
                    and time.time() < deadline:
                time.sleep(0.1)
            for step in steps:
                if step in ("Enter", "/") or len(step) == 1:
                    keys(step)
                else:
                    tmux("send-keys", "-t", "0", "-l", step)
            shot(name, title)
            keys("q", "q")
    finally:
        tmux("kill-server")
        shutil.rmtree(state, ignore_errors=True)


def served_log():
    """The inspector's --serve: a backend's requests and the deliveries to it in the event log."""
    import base64
    import json
    import threading
    import urllib.request
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Backend(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    backend = HTTPServer(("127.0.0.1", 0), Backend)
    threading.Thread(target=backend.serve_forever, daemon=True).start()
    state = tempfile.mkdtemp()
    try:
        session("Configs/FoodTruck.storekit", state,
                "--serve 127.0.0.1:0 --notify-url http://127.0.0.1:%d/asn" % backend.server_port,
                size=(150, 36))
        match = re.search(r"API on http://127\.0\.0\.1:(\d+)", tmux("capture-pane", "-p", "-t", "0"))
        base = "http://127.0.0.1:%s" % match.group(1)

        def b64(data):
            return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

        # Without --api-key any well-formed token is taken (its signature is not checked).
        claims = {"iss": "shots", "aud": "appstoreconnect-v1", "bid": "com.example.storekeeper",
                  "exp": int(time.time()) + 600}
        token = ".".join([b64(json.dumps({"alg": "ES256", "kid": "SHOTS", "typ": "JWT"}).encode()),
                          b64(json.dumps(claims).encode()), b64(bytes(64))])

        def call(method, path, body=None):
            request = urllib.request.Request(base + path, data=body, method=method,
                                             headers={"Authorization": "Bearer " + token})
            try:
                urllib.request.urlopen(request).read()
            except urllib.error.HTTPError:
                pass
            time.sleep(0.15)

        call("POST", "/storekeeper/v1/commands", b"buy socialfeed.monthly\nbuy foodtruck.donuts.box")
        call("GET", "/inApps/v1/transactions/0")
        call("GET", "/inApps/v2/history/0")
        call("GET", "/inApps/v1/subscriptions/0")
        call("PUT", "/inApps/v1/subscriptions/extend/0",
             b'{"extendByDays":7,"extendReasonCode":1,"requestIdentifier":"support-1"}')
        call("POST", "/inApps/v1/notifications/test")
        call("GET", "/inApps/v1/transactions/42")
        keys("Tab", "v")
        shot("served-log", "--serve: a backend's requests and the notifications it got, in the event log")
        keys("q")
    finally:
        tmux("kill-server")
        backend.shutdown()
        shutil.rmtree(state, ignore_errors=True)


def retention_dialog():
    """o on a subscription with a real-time URL set: the switch-plan message it chose."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    message = "33333333-3333-4333-8333-333333333333"
    answer = json.dumps({"alternateProduct": {"messageIdentifier": message,
                                              "productId": "socialfeed.premium.monthly"}}).encode()

    class Endpoint(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *args):
            pass

    endpoint = HTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=endpoint.serve_forever, daemon=True).start()
    state = tempfile.mkdtemp()
    try:
        session("Configs/FoodTruck.storekit", state, size=(80, 24))
        command("buy socialfeed.monthly")
        body = {"header": "Go Premium instead of leaving",
                "body": "Premium has every feed, no ads, and early access to new trucks."}
        command("retention upload-message %s %s" % (message, json.dumps(json.dumps(body))))
        command("retention url http://127.0.0.1:%d/retention" % endpoint.server_port)
        keys("Tab", "o")
        shot("retention-dialog-80x24",
             "o on a subscription: the retention message your endpoint chose, before auto-renew goes off")
        keys("Escape", "q")
    finally:
        tmux("kill-server")
        endpoint.shutdown()
        shutil.rmtree(state, ignore_errors=True)


def decoded_receipt():
    """The zoomed inspector of a renewal: its record in the app receipt, each field with its
    ASN.1 type; W has written the receipt."""
    state = tempfile.mkdtemp()
    receipts = "/tmp/receipts"  # a short path for the status line
    os.makedirs(receipts, exist_ok=True)
    try:
        session("Configs/FoodTruck.storekit", state, "--receipts '%s'" % receipts, size=(120, 40))
        command("buy foodtruck.donuts.box")
        command("buy socialfeed.yearly")
        command("advance 11s")
        command("finish 0")
        keys("Tab", "g", "Enter")
        scroll_until("1719 is_in_intro_offer_period")
        keys("j", "j", "W")
        shot("decoded-receipt", "The zoomed inspector: a renewal's record in the app receipt, decoded")
        keys("q")
    finally:
        shutil.rmtree(state, ignore_errors=True)
        shutil.rmtree(receipts, ignore_errors=True)


def family_device():
    """m: a family member's device, what the purchaser shares with them, one of it revoked."""
    state = tempfile.mkdtemp()
    try:
        session("Configs/Everything.storekit", state)
        command("family join Anna")
        command("buy everything.family.monthly")
        command("buy everything.lifetime")
        command("advance next")
        command("refund last:everything.lifetime")
        keys("m", "Tab", "G")
        shot("family-member-device", "m: Anna's device: her own family-shared transactions, one revoked with the purchaser's refund")
        keys("m")
        command("buy everything.pro.max.yearly plan=MONTHLY")
        command("advance next")
        command("advance next")
        keys("g")
        shot("monthly-plan", "A monthly plan: payment 3 of its 12-month commitment, its price and end")
        keys("q")
    finally:
        shutil.rmtree(state, ignore_errors=True)


def multiseat():
    """A developer-hosted multiseat subscription at 80x24: its seats, claims and what renews."""
    state = tempfile.mkdtemp()
    try:
        session("Configs/FoodTruck.storekit", state, size=(80, 24))
        command("set time-rate realTime")
        command("set invitations developer")
        command("buy socialfeed.premium.monthly seats=5")
        command("seat-claim 0 request=00000000-0000-4000-8000-000000000001")
        command("seat-claim 0 request=00000000-0000-4000-8000-000000000002")
        command("seats 0 3")
        keys("Tab")
        shot("multiseat-80x24", "A multiseat subscription at 80x24: five seats, two claimed, three renew")
        keys("q")
        tmux("kill-server")
        session("Configs/FoodTruck.storekit", state + "/members", size=(80, 24))
        command("set time-rate realTime")
        command("buy socialfeed.premium.monthly seats=4")
        command("group invite ann")
        command("group invite bob")
        keys("Tab", "S")
        shot("multiseat-members-80x24",
             "An Apple-hosted multiseat subscription at 80x24: two members and the seats menu")
        keys("Escape", "q")
    finally:
        tmux("kill-server")
        shutil.rmtree(state, ignore_errors=True)


def commerce():
    """An Advanced Commerce subscription at 80x24: its items, and a price change waiting."""
    state = tempfile.mkdtemp()
    try:
        request = os.path.join(state, "request.json")
        with open(request, "w") as f:
            f.write('{"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":'
                    '{"requestReferenceId":"6f1c3e2a-1b2c-4d5e-8f90-0a1b2c3d4e5f"},'
                    '"currency":"USD","taxCode":"C003-00-1","period":"P1M","descriptors":'
                    '{"description":"All the news","displayName":"News+"},"items":['
                    '{"SKU":"daily","description":"Daily","displayName":"Daily","price":4990},'
                    '{"SKU":"sports","description":"Sports","displayName":"Sports","price":1990,'
                    '"offer":{"period":"P1M","periodCount":2,"price":990,"reason":"ACQUISITION"}}]}')
        jws = subprocess.run([BINARY, "advanced-commerce-request", "Configs/FoodTruck.storekit",
                              request, "--issued-at", "1795312800"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
        session("Configs/FoodTruck.storekit", state, size=(80, 24))
        command("set time-rate realTime")
        command("set advanced-commerce com.example.news subscription")
        command("buy com.example.news advanced-commerce=" + jws)
        command('commerce change-price 0 {"requestInfo":{"requestReferenceId":'
                '"00000000-0000-4000-8000-000000000002"},"items":[{"SKU":"daily","price":5490}]}')
        keys("Tab")
        shot("advanced-commerce-80x24",
             "An Advanced Commerce subscription at 80x24: its items, an offer, a price change waiting")
        keys("q")
    finally:
        tmux("kill-server")
        shutil.rmtree(state, ignore_errors=True)


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "multiseat":
        return multiseat()
    if len(sys.argv) > 2 and sys.argv[2] == "commerce":
        return commerce()
    if len(sys.argv) > 2 and sys.argv[2] == "customers":
        return customers_view()
    if len(sys.argv) > 2 and sys.argv[2] == "retention":
        return retention_dialog()
    if not shutil.which("tmux"):
        sys.exit("tmux is needed: apt-get install tmux")
    state = tempfile.mkdtemp()
    try:
        session("Configs/FoodTruck.storekit", state)
        command("buy socialfeed.monthly")
        command("buy foodtruck.saleshistory")
        keys("j", "j", "j", "j", "b", "j", "Right")
        shot("product-list-buy-dialog", "Product list with the buy dialog")
        keys("Escape", "Tab")
        command("buy foodtruck.donuts.box quantity=2")
        command("advance 95s")
        keys("/")
        tmux("send-keys", "-t", "0", "-l", "product:socialfeed after:2026-11-22T02:00:20Z")
        keys("Enter")
        shot("filtered-table", "Transactions filtered by product and date")
        keys("Escape")
        command("set billing-retry on")
        command("set grace-period on")
        command("buy socialfeed.monthly offer=code:\"Free Month\" from=store")
        keys("n", "v")
        shot("inspector-grace-period", "Inspector of a subscription in its grace period with upcoming renewals")
        keys("N")
        shot("step-back", "N: one step back, before the last event, with the changed lines marked")
        keys("/", "?")
        shot("filter-help", "The filter's syntax, from ? at the filter line")
        keys("Escape", "Escape")
        command("buy socialfeed.premium.monthly")
        command("price-increase request last price=16.49")
        keys("g")
        shot("price-increase", "A price increase waiting for consent: old and new price, and when")
        keys("q")
        state4 = tempfile.mkdtemp()
        session("Configs/FoodTruck.storekit", state4, size=(80, 24))
        shot("first-screen-80x24", "The first screen at 80x24: start in Products, b buys")
        keys("Down", "Down", "Down", "Down", "b")
        shot("buy-dialog-80x24", "The buy dialog at 80x24: a long offer wraps under its label")
        keys("Escape", "q")
        # The whole help of the Transactions pane (it scrolls and narrows as you type when the
        # terminal is shorter).
        session("Configs/FoodTruck.storekit", tempfile.mkdtemp(dir=state4), size=(120, 46))
        command("buy socialfeed.monthly")
        keys("Tab", "?")
        shot("help-overlay", "Help: every key of the focused pane")
        keys("Escape", "q")
        shutil.rmtree(state4, ignore_errors=True)
        state2 = tempfile.mkdtemp()
        session("Configs/Everything.storekit", state2)
        command("buy everything.pro.monthly")
        shot("japanese-catalog", "A Japanese-localized catalog (ja locale, JPN storefront)")
        keys("q")
        shutil.rmtree(state2, ignore_errors=True)
        state3 = tempfile.mkdtemp()
        session("Configs/FoodTruck.storekit", state3,
                "--sign --notifications '%s'" % os.path.join(state3, "asn"))
        command("buy socialfeed.monthly")
        keys("Tab", "v", "n")
        time.sleep(0.3)
        shot("notifications-log", "Server notifications in the event log, with the transaction's JWS")
        keys("Enter")
        scroll_until("deviceVerificationNonce")
        shot("signed-transaction", "The zoomed inspector: a transaction's jwsRepresentation decoded and raw")
        keys("q")
        shutil.rmtree(state3, ignore_errors=True)
        family_device()
        catch_up()
        served_log()
        decoded_receipt()
        customers_view()
        retention_dialog()
        multiseat()
    finally:
        tmux("kill-server")
        shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    main()
