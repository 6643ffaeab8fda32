"""The fixture pages the web tests serve; `{other}` is the origin of a second loopback server."""

HOME = """<!doctype html>
<html><head><title>Fixture Home</title>
<style>body { margin: 0; font-family: sans-serif; } #pixel { position: absolute; left: 100px; top: 300px;
width: 120px; height: 40px; }</style></head>
<body>
<h1>Welcome to the fixture</h1>
<nav><a href="/second">Second page</a></nav>
<p id="status">Nothing saved yet</p>
<button id="save" onclick="document.getElementById('status').textContent = 'Saved!'">Save</button>
<button hidden>Delete</button>
<button id="pixel" onclick="document.getElementById('status').textContent = 'Pixel pressed'"
  aria-label="Press here"><span>Pixel</span></button>
<form id="details" action="/echo" method="post">
  <label for="email">Email</label> <input id="email" name="email" type="email">
  <input name="query" placeholder="Search terms">
  <label>Colour <select name="colour"><option value="r">Red</option><option value="g">Green</option></select></label>
  <label><input type="checkbox" name="agree" id="agree"> I agree</label>
  <textarea name="notes" data-testid="notes"></textarea>
  <button type="submit">Send form</button>
</form>
</body></html>"""

SECOND = """<!doctype html><html><head><title>Second page</title></head>
<body><h2>The second page</h2><a href="/">Home</a></body></html>"""

TWINS = """<!doctype html><html><head><title>Twins</title></head><body>
<div style="display:none"><button onclick="document.title='hidden clicked'">Go</button></div>
<button onclick="document.title='visible clicked'">Go</button>
<button onclick="document.title='loose clicked'">Go further</button>
<div class="row"><span>a</span><span>b</span></div>
</body></html>"""

LATE = """<!doctype html><html><head><title>Late</title></head><body>
<script>setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Ready';
document.body.appendChild(b); }, 300);</script></body></html>"""

TALL = """<!doctype html><html><head><title>Tall</title></head><body style="margin:0">
<div style="height: 5000px">tall</div></body></html>"""

OUTBOUND = """<!doctype html><html><head><title>Outbound</title></head><body>
<form action="{other}/collect" method="post"><input name="secret" value="s3cret">
<button>Post it elsewhere</button></form>
<button id="beacon" onclick="fetch('{other}/collect', {method: 'POST', body: 'x'}).catch(() => {})">Fetch out</button>
<a href="{other}/">Leave by link</a>
<a href="/bounce">Bounce away</a>
</body></html>"""

PICTURED = """<!doctype html><html><head><title>Pictured</title></head><body>
<img src="{other}/pixel.png" alt="remote picture"></body></html>"""

PAGES = {"/": HOME, "/second": SECOND, "/twins": TWINS, "/late": LATE, "/tall": TALL, "/outbound": OUTBOUND,
         "/pictured": PICTURED}
